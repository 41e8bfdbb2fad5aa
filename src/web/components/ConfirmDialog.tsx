import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';

/**
 * Asks before an action that cannot be undone (leave a room, delete, remove a friend), so every
 * such question looks, reads and behaves by keyboard the same way.
 */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  loading = false,
  error,
  color = 'red',
  centered,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The question's text; left out when the title says it all. */
  children?: ReactNode;
  confirmLabel: string;
  /** Defaults to the common "Cancel". */
  cancelLabel?: string;
  onConfirm: () => void;
  loading?: boolean;
  error?: string | null;
  color?: string;
  centered?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered={centered}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        {children && <Text>{children}</Text>}
        {error && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button color={color} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
