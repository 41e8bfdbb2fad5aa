import { Text } from '@mantine/core';
import { ApiError } from '../../lib/api';

/**
 * Why a deal's step failed, as one line the screen reader announces. Nothing when there is no
 * error, or when the server's field errors already stand beside the fields they are about.
 */
export function StepError({ error }: { error: Error | null | undefined }) {
  if (!error || (error instanceof ApiError && error.fields)) return null;
  return (
    <Text size="xs" c="red.9" role="alert">
      {error.message}
    </Text>
  );
}
