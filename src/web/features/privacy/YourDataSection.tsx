import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconDownload, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useNavigate } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/notify';
import { deleteAccount, downloadMyData, fetchDeletionMethod } from './api';
import { SectionCard } from '../../components/SectionCard';

/**
 * Settings → "Your data": download everything about me, and delete my account (members' rights).
 * The texts are the lazy `privacy` locale group.
 */
export function YourDataSection() {
  const { t } = useTranslation();
  const [opened, modal] = useDisclosure(false);
  const download = useMutation({
    mutationFn: downloadMyData,
    onSuccess: () => notify('green', t('privacy.downloaded')),
  });
  return (
    <SectionCard id="your-data" title={t('privacy.title')}>
      <Text size="sm">{t('privacy.intro')}</Text>
      <Stack gap={4}>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={18} aria-hidden />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('privacy.download')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t('privacy.downloadHint')}
        </Text>
        {download.isError && (
          <Text size="sm" c="red.9" role="alert">
            {download.error.message}
          </Text>
        )}
      </Stack>
      <Stack gap={4}>
        <Group>
          <Button
            color="red.9"
            variant="outline"
            leftSection={<IconTrash size={18} aria-hidden />}
            onClick={modal.open}
          >
            {t('privacy.delete')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {t('privacy.deleteHint')}
        </Text>
      </Stack>
      {opened && <DeleteAccountModal onClose={modal.close} />}
    </SectionCard>
  );
}

function DeleteAccountModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const how = useQuery({ queryKey: ['me', 'deletion'], queryFn: fetchDeletionMethod });
  const needsPassword = how.data?.method !== 'freshSignIn';
  const remove = useMutation({
    mutationFn: () => deleteAccount(needsPassword ? password : undefined),
    onSuccess: async () => {
      onClose();
      // The server ended every session; this clears the app's state and tells the other tabs.
      await session.signOut().catch(() => {});
      navigate('/', { replace: true });
      notify('green', t('privacy.accountDeletedNotice'));
    },
  });
  const error = remove.error instanceof ApiError ? remove.error : null;
  const mustSignIn =
    error?.code === 'reauthentication_required' ||
    (how.data?.method === 'freshSignIn' && !how.data.fresh);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!remove.isPending) remove.mutate();
  };

  const signInAgain = async () => {
    const back = `/profile/${encodeURIComponent(session.user?.id ?? '')}/settings`;
    await session.signOut().catch(() => {});
    navigate(`/login?redirect_to=${encodeURIComponent(back)}`);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('privacy.modal.title')}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Text fw={600} size="sm">
              {t('privacy.modal.removedTitle')}
            </Text>
            <List size="sm" spacing={2}>
              <List.Item>{t('privacy.modal.removed1')}</List.Item>
              <List.Item>{t('privacy.modal.removed2')}</List.Item>
              <List.Item>{t('privacy.modal.removed3')}</List.Item>
            </List>
          </div>
          <div>
            <Text fw={600} size="sm">
              {t('privacy.modal.keptTitle')}
            </Text>
            <List size="sm" spacing={2}>
              <List.Item>{t('privacy.modal.kept1')}</List.Item>
              <List.Item>{t('privacy.modal.kept2')}</List.Item>
              <List.Item>{t('privacy.modal.kept3')}</List.Item>
            </List>
          </div>
          <Text size="sm" c="dimmed">
            {t('privacy.modal.downloadFirst')}
          </Text>
          {how.isSuccess && needsPassword && (
            <PasswordInput
              label={t('privacy.modal.password')}
              description={t('privacy.modal.passwordHint')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="current-password"
              error={error?.fields?.password}
              required
              data-autofocus
            />
          )}
          {how.isSuccess && !needsPassword && !mustSignIn && (
            <Text size="sm">{t('privacy.modal.freshSignIn')}</Text>
          )}
          {mustSignIn && (
            <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} role="alert">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t('privacy.errors.signInAgain')}</Text>
                <Button size="xs" variant="default" onClick={() => void signInAgain()}>
                  {t('privacy.modal.signInAgain')}
                </Button>
              </Stack>
            </Alert>
          )}
          {how.isError && (
            <Text size="sm" c="red.9" role="alert">
              {how.error.message}
            </Text>
          )}
          {error && !error.fields?.password && !mustSignIn && (
            <Text size="sm" c="red.9" role="alert">
              {error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('privacy.modal.cancel')}
            </Button>
            <Button
              type="submit"
              color="red.9"
              leftSection={<IconTrash size={18} aria-hidden />}
              loading={remove.isPending}
              disabled={!how.isSuccess || mustSignIn || (needsPassword && !password)}
            >
              {t('privacy.modal.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
