import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@web/lib/reactI18n';
import { useLocation, useNavigate } from '@web/lib/router';
import { ME_QUERY_KEY, useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { NameFields } from './NameFields';
import { AuthCard, AuthSubmit } from './AuthCard';
import { updateMe } from './api';
import { dashboardPath } from './safeRedirect';
import { useSubmitState } from './useSubmitState';
import { displayNameKey, usernameKey } from './validation';

/**
 * The gate a member meets first while they have no display name or username (Google sign-in,
 * accounts made before sign-up asked): nothing else of the app shows until both are chosen.
 * Then the member goes on to the page they asked for (the dashboard from the sign-in pages),
 * greeted as a new member.
 */
export default function ProfileSetupPage() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { error, submitting, run } = useSubmitState();
  useDocumentTitle(t('profileSetup.pageTitle'));
  const user = session.status === 'signed-in' ? session.user : null;

  const form = useForm({
    initialValues: { displayName: user?.displayName ?? '', username: user?.username ?? '' },
    validate: { displayName: displayNameKey, username: usernameKey },
  });
  if (!user) return null;

  return (
    <AuthCard title={t('profileSetup.title')} subtitle={t('profileSetup.intro')}>
      {error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {error}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          run(async () => {
            try {
              const me = await updateMe({
                displayName: values.displayName.trim(),
                username: values.username.trim(),
              });
              queryClient.setQueryData(ME_QUERY_KEY, me);
              session.applyUser(me);
              // From the sign-in pages (or the callback) the member lands on their dashboard.
              const onAuthPage = /^\/(login|signup|auth\/callback)/.test(location.pathname);
              const home = dashboardPath(me.id);
              if (onAuthPage || location.pathname === '/' || location.pathname === home)
                navigate(dashboardPath(me.id), { replace: true, state: { newMember: true } });
            } catch (err) {
              const fields = err instanceof ApiError ? err.fields : undefined;
              if (fields?.username || fields?.displayName) {
                form.setErrors(fields);
                return;
              }
              throw err;
            }
          }),
        )}
      >
        <Stack>
          <NameFields form={form} autoFocus />
          <AuthSubmit loading={submitting}>{t('profileSetup.submit')}</AuthSubmit>
        </Stack>
      </form>
      <Button
        variant="subtle"
        color="gray"
        leftSection={<IconLogout size={16} aria-hidden />}
        onClick={() => void session.signOut().then(() => navigate('/'))}
      >
        {t('settings.signOut')}
      </Button>
    </AuthCard>
  );
}
