import { Button, Stack, Text, type ButtonProps } from '@mantine/core';
import { useId } from 'react';

/**
 * A deal step's button with a short line under it saying what the step does (issue 33 item 5):
 * the line also describes the button to assistive technology.
 */
export function StepAction({
  label,
  help,
  onClick,
  loading,
  variant,
  ariaExpanded,
}: {
  label: string;
  help: string;
  onClick: () => void;
  loading?: boolean;
  variant?: ButtonProps['variant'];
  ariaExpanded?: boolean;
}) {
  const helpId = useId();
  return (
    <Stack gap={2} align="flex-start" data-testid="deal-action">
      <Button
        size="compact-sm"
        variant={variant}
        loading={loading}
        onClick={onClick}
        aria-describedby={helpId}
        aria-expanded={ariaExpanded}
      >
        {label}
      </Button>
      <Text id={helpId} size="xs" c="dimmed">
        {help}
      </Text>
    </Stack>
  );
}
