import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'brown',
  colors: {
    brown: [
      '#fbf3ec',
      '#f1e2d4',
      '#e3c3a6',
      '#d5a275',
      '#c9864c',
      '#c27432',
      '#a95f22',
      '#8f4f1b',
      '#7c3f1d',
      '#5e2f12',
    ],
  },
  primaryShade: { light: 8, dark: 5 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Georgia, "Times New Roman", serif' },
  defaultRadius: 'md',
});

/**
 * Mantine's default dimmed grey, error red and light-variant text colours are below WCAG AA
 * contrast on white; ours pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': '#c92a2a',
    // Text of "light" badges and alerts: shade 9 of each colour instead of 6, for AA contrast.
    ...Object.fromEntries(
      ['red', 'orange', 'yellow', 'green', 'teal', 'blue', 'gray'].map((c) => [
        `--mantine-color-${c}-light-color`,
        `var(--mantine-color-${c}-9)`,
      ]),
    ),
  },
  dark: {},
});
