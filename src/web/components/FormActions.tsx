import { Button, Group } from '@mantine/core';

/**
 * A form's buttons, on the right: cancel (when there is `onCancel`), then submit (busy while
 * `loading`, not to be pressed while `disabled`, e.g. while a cover uploads).
 */
export function FormActions({
  cancelLabel,
  submitLabel,
  onCancel,
  loading,
  disabled,
}: {
  cancelLabel: string;
  submitLabel: string;
  onCancel?: () => void;
  loading: boolean;
  disabled?: boolean;
}) {
  return (
    <Group justify="flex-end">
      {onCancel && (
        <Button variant="default" onClick={onCancel}>
          {cancelLabel}
        </Button>
      )}
      <Button type="submit" loading={loading} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}
