import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { Link } from '@web/lib/router';

/** Mantine's Button as a router link, with an optional 18 px icon before its text. */
export function ButtonLink({
  to,
  icon: Icon,
  children,
  ...props
}: ButtonProps & {
  to: string;
  icon?: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  children: ReactNode;
}) {
  return (
    <Button
      component={Link}
      to={to}
      leftSection={Icon ? <Icon size={18} aria-hidden /> : undefined}
      {...props}
    >
      {children}
    </Button>
  );
}
