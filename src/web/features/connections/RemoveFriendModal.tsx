import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ActionError } from './ActionError';

/** Asks before a friendship ends (spec 2 section 4: removal after confirmation). */
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
    <Modal opened={opened} onClose={onClose} title={t('connections.remove.title')} centered>
      <Text mb="md">{t('connections.remove.text', { name })}</Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t('connections.remove.cancel')}
        </Button>
        <Button color="red" loading={pending} onClick={onConfirm}>
          {t('connections.remove.confirm')}
        </Button>
      </Group>
      <ActionError message={error} />
    </Modal>
  );
}
