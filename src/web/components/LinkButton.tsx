import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from '@web/lib/router';
import classes from './LinkButton.module.css';

/**
 * Mantine's Button look (filled or default, sizes sm and md) without Mantine's Button: that one
 * brings its loading state's Transition and Loader (about 4 KB gzipped with ActionIcon's) into
 * the shell, and no button of the shell or the home page ever loads. Pages deeper in use Mantine's.
 */
export interface ButtonLook {
  variant?: 'filled' | 'default';
  size?: 'sm' | 'md';
}

// Mantine's global focus ring and pressed offset (global.css, always loaded), then the look.
const lookClass = (className: string | undefined) =>
  ['mantine-focus-auto mantine-active', classes.root, className].filter(Boolean).join(' ');

/** A router link that looks like Mantine's Button. */
export function LinkButton({
  variant = 'filled',
  size = 'sm',
  className,
  ...props
}: LinkProps & ButtonLook) {
  return (
    <Link {...props} data-variant={variant} data-size={size} className={lookClass(className)} />
  );
}

/** A <button> that looks like Mantine's Button. */
export function PlainButton({
  variant = 'filled',
  size = 'sm',
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & ButtonLook) {
  return (
    <button
      {...props}
      type={type}
      data-variant={variant}
      data-size={size}
      className={lookClass(className)}
    />
  );
}
