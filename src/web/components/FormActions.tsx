import { Button, Group } from '@mantine/core';

/** A dialog form's buttons, on the right: cancel (closes), then submit (busy while `loading`). */
export function FormActions({
  cancelLabel,
  submitLabel,
  onCancel,
  loading,
}: {
  cancelLabel: string;
  submitLabel: string;
  onCancel: () => void;
  loading: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" loading={loading}>
        {submitLabel}
      </Button>
    </Group>
  );
}
