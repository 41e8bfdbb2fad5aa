import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { MODERATION_REASON_MAX } from '@shared/moderation';
import { ApiError } from '../../lib/api';
import { useAdminAction, type AdminAction } from './api';
import { FormActions } from '../../components/FormActions';

/** An action on the queue waiting for its reason, and the dialog's title. */
export type Pending = { action: AdminAction; title: string };

/** Every action asks for its reason: it goes to the audit log and to the member. */
export function ActionDialog({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const run = useAdminAction();
  const error = run.error instanceof ApiError ? run.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run.mutate(
      { ...pending.action, reason },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: t('admin.dialog.done'),
            closeButtonProps: { 'aria-label': t('common.close') },
          });
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={pending.title}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Textarea
            label={t('admin.dialog.reasonLabel')}
            description={t('admin.dialog.reasonHelp')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={MODERATION_REASON_MAX}
            required
            autosize
            minRows={3}
            data-autofocus
            error={error?.fields?.reason}
          />
          {error && !error.fields && (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {error.message}
            </Text>
          )}
          <FormActions
            cancelLabel={t('admin.dialog.cancel')}
            submitLabel={t('admin.dialog.confirm')}
            onCancel={onClose}
            loading={run.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
