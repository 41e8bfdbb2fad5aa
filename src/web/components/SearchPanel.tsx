import { Grid, Paper } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/**
 * The filters of a list as a search landmark: a bordered form, named by `label`, whose fields
 * (Grid columns) sit on one row from a tablet up. Submitting runs `onSubmit`, never a page load.
 */
export function SearchPanel({
  label,
  onSubmit,
  children,
}: {
  label: string;
  onSubmit?: () => void;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      role="search"
      aria-label={label}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      <Grid gutter="md" align="flex-end">
        {children}
      </Grid>
    </Paper>
  );
}
