import { Button, Group } from '@mantine/core';

/**
 * A form's buttons, on the right: cancel (when there is `onCancel`), then submit (busy while
 * `loading`).
 */
export function FormActions({
  cancelLabel,
  submitLabel,
  onCancel,
  loading,
}: {
  cancelLabel: string;
  submitLabel: string;
  onCancel?: () => void;
  loading: boolean;
}) {
  return (
    <Group justify="flex-end">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          {cancelLabel}
        </Button>
      )}
      <Button type="submit" loading={loading}>
        {submitLabel}
      </Button>
    </Group>
  );
}
