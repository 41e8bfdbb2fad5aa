import { useTranslation } from '@web/lib/reactI18n';
import { ConfirmDialog } from '../../components/ConfirmDialog';

/** Asks before a friendship ends: a friend is removed only after confirmation. */
export function RemoveFriendModal({
  name,
  opened,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  name: string;
  opened: boolean;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={t('connections.remove.title')}
      cancelLabel={t('connections.remove.cancel')}
      confirmLabel={t('connections.remove.confirm')}
      loading={pending}
      error={error}
      onConfirm={onConfirm}
      centered
    >
      {t('connections.remove.text', { name })}
    </ConfirmDialog>
  );
}
