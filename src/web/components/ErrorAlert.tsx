import { Alert, type AlertProps } from '@mantine/core';

/**
 * A red alert whose title keeps WCAG AA contrast: Mantine's light red title colour is below
 * 4.5:1 on its tinted background, the theme's error red is not.
 */
export function ErrorAlert(props: Omit<AlertProps, 'color'>) {
  return (
    <Alert
      color="red"
      role="alert"
      {...props}
      styles={{ title: { color: 'var(--mantine-color-error)' } }}
    />
  );
}
