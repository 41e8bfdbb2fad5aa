import {
  Alert,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconLogout, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useNavigate } from '@web/lib/router';
import { AVATAR_MAX_BYTES } from '@shared/constants';
import { formatDate } from '@shared/format';
import { displayNameOf, ME_QUERY_KEY, useSession } from '../../lib/session';
import { PageLoader } from '../../components/PageLoader';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fetchMe, sendVerificationEmail, uploadAvatar, type Me } from './api';
import { UserAvatar } from '../../components/UserAvatar';
import { ProfileForm } from './ProfileForm';
import { PasswordForm } from './PasswordForm';
import { notify } from '../../lib/notify';
import { MissedMessagesSwitch } from '../chats';
import { NotificationSettings } from '../notifications';
import { YourDataSection } from '../privacy';
import { BlockedMembersSection } from '../blocks';
import { HolidaySettings } from '../watching';
import { AddressesSection } from '../deals';
import { ButtonLink } from '../../components/ButtonLink';

type Upload =
  | { state: 'idle' }
  | { state: 'uploading'; percent: number }
  | { state: 'failed'; message: string };

export default function SettingsPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe });
  useDocumentTitle(t('settings.pageTitle'));

  if (me.isPending) return <PageLoader />;
  if (me.isError || !me.data) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
        {me.error?.message ?? t('errors.general')}
      </Alert>
    );
  }
  const data = me.data;
  const language = i18n.resolvedLanguage ?? i18n.language;

  return (
    <Stack gap="lg" maw={720}>
      <Title order={1} fz={{ base: 26, sm: 32 }}>
        {t('settings.title')}
      </Title>
      <AvatarCard me={data} onChanged={session.applyUser} />
      <Card withBorder padding="lg" component="section" aria-labelledby="settings-profile-title">
        <Stack gap="md">
          <Title order={2} fz="lg" id="settings-profile-title">
            {t('settings.profile.title')}
          </Title>
          <ProfileForm me={data} onChanged={session.applyUser} />
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} fz="lg">
            {t('settings.account')}
          </Title>
          <Field label={t('settings.email')}>
            <Text data-testid="settings-email">{data.email}</Text>
          </Field>
          <Field label={t('settings.status')}>
            <AccountStatus me={data} />
          </Field>
          <Field label={t('settings.memberSince')}>
            <Text data-testid="settings-member-since">{formatDate(data.createdAt, language)}</Text>
          </Field>
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="settings-password-title">
        <Stack gap="md">
          <Title order={2} fz="lg" id="settings-password-title">
            {t('settings.password.title')}
          </Title>
          <PasswordForm />
        </Stack>
      </Card>
      <Card withBorder padding="lg" id="notifications">
        <Stack gap="md">
          <Title order={2} fz="lg">
            {t('settings.missedMessages.title')}
          </Title>
          <MissedMessagesSwitch me={data} />
          <NotificationSettings />
        </Stack>
      </Card>
      <HolidaySettings />
      <AddressesSection />
      <BlockedMembersSection />
      <YourDataSection />
      <Group>
        <Button
          color="red.9"
          variant="outline"
          leftSection={<IconLogout size={18} aria-hidden />}
          onClick={async () => {
            try {
              await session.signOut();
            } catch {
              notify('red', t('account.logoutFailed'));
            }
            navigate('/');
          }}
        >
          {t('settings.signOut')}
        </Button>
        <ButtonLink to="/" variant="default" icon={IconArrowLeft}>
          {t('common.backToHome')}
        </ButtonLink>
      </Group>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function AvatarCard({ me, onChanged }: { me: Me; onChanged: (me: Me) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });

  const choose = async (file: File | null) => {
    if (!file) return;
    // The server checks the content; these mirror its rules so a wrong file fails at once.
    if (!file.type.startsWith('image/'))
      return setUpload({ state: 'failed', message: t('settings.errors.invalidFileType') });
    if (file.size > AVATAR_MAX_BYTES)
      return setUpload({ state: 'failed', message: t('settings.errors.fileTooLarge') });
    setUpload({ state: 'uploading', percent: 0 });
    try {
      const updated = await uploadAvatar(file, (percent) =>
        setUpload({ state: 'uploading', percent }),
      );
      queryClient.setQueryData(ME_QUERY_KEY, updated);
      onChanged(updated);
      setUpload({ state: 'idle' });
      notify('green', t('settings.avatarUpdated'));
    } catch (err) {
      const message =
        err instanceof ApiError && err.status > 0 && err.status < 500 && err.message
          ? err.message
          : t('settings.errors.uploadFailed');
      setUpload({ state: 'failed', message });
    }
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} fz="lg">
          {t('settings.avatar')}
        </Title>
        <Group gap="lg" wrap="wrap">
          <UserAvatar
            name={displayNameOf(me)}
            avatarUrl={me.avatarUrl}
            avatarSeed={me.avatarSeed}
            size={96}
            alt={t('settings.avatarAlt', { name: displayNameOf(me) })}
          />
          <Stack gap="xs" style={{ flex: 1, minWidth: 200 }}>
            <FileButton onChange={choose} accept="image/*">
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  leftSection={<IconUpload size={18} aria-hidden />}
                  loading={upload.state === 'uploading'}
                  w="fit-content"
                >
                  {t('settings.changeAvatar')}
                </Button>
              )}
            </FileButton>
            <Text size="sm" c="dimmed">
              {t('settings.avatarHint')}
            </Text>
            {upload.state === 'uploading' && (
              <Stack gap={4} role="status" aria-live="polite">
                <Text size="sm">{t('settings.uploading', { percent: upload.percent })}</Text>
                <Progress
                  value={upload.percent}
                  aria-label={t('settings.uploadProgress')}
                  animated
                />
              </Stack>
            )}
            {upload.state === 'failed' && (
              <Alert color="red" icon={<IconAlertCircle aria-hidden />} p="xs">
                {upload.message}
              </Alert>
            )}
          </Stack>
        </Group>
      </Stack>
    </Card>
  );
}

function AccountStatus({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const resend = useMutation({
    mutationFn: () => sendVerificationEmail(me.email),
    onSuccess: () => setSent(true),
  });
  if (me.accountStatus === 'verified') {
    return (
      <Badge color="green" variant="dot" size="lg" data-testid="settings-status">
        {t('settings.verified')}
      </Badge>
    );
  }
  return (
    <Stack gap="xs" align="flex-start">
      <Badge color="orange" variant="dot" size="lg" data-testid="settings-status">
        {t('settings.pending')}
      </Badge>
      <Text size="sm" c="dimmed">
        {t('settings.pendingHint')}
      </Text>
      {sent ? (
        <Text size="sm" role="status">
          {t('settings.resent')}
        </Text>
      ) : (
        <Button
          size="xs"
          variant="default"
          loading={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {t('settings.resend')}
        </Button>
      )}
      {resend.isError && (
        <Text size="sm" c="red" role="alert">
          {resend.error.message}
        </Text>
      )}
    </Stack>
  );
}
