import { Text } from '@mantine/core';

/** A failed action's message, right under its button, announced to screen readers. */
export function ActionError({ message }: { message: string | null }) {
  return (
    <div aria-live="polite">
      {message && (
        <Text size="sm" mt={6} c="var(--mantine-color-error)" role="alert">
          {message}
        </Text>
      )}
    </div>
  );
}
