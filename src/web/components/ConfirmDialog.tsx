import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
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

/** A mutation a ConfirmDialog's answer runs, without variables (e.g. a deal's step). */
export interface ConfirmedMutation {
  isPending: boolean;
  error: { message: string } | null;
  reset: () => void;
  mutate: (variables: undefined, options: { onSuccess: () => void }) => void;
}

/**
 * A step that cannot be undone, asked first: `ask()` clears the mutation's last error and opens
 * the question; the answer runs the mutation and closes the question once it is done. Spread
 * `dialog` on the ConfirmDialog: `<ConfirmDialog {...step.dialog} title=… confirmLabel=…>`.
 */
export function useConfirmStep(mutation: ConfirmedMutation) {
  const [opened, setOpened] = useState(false);
  const close = () => setOpened(false);
  return {
    ask: () => {
      mutation.reset();
      setOpened(true);
    },
    dialog: {
      opened,
      onClose: close,
      loading: mutation.isPending,
      error: mutation.error?.message ?? null,
      onConfirm: () => mutation.mutate(undefined, { onSuccess: close }),
    },
  };
}
