import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useLocation, useNavigate } from '@web/lib/router';
import { ME_QUERY_KEY, useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { NameFields } from './NameFields';
import { AuthCard, AuthSubmit } from './AuthCard';
import { updateMe, type Me } from './api';
import { dashboardPath } from './safeRedirect';
import { useSubmitState } from './useSubmitState';
import { displayNameKey, usernameKey } from './validation';
import { acceptTermsKey, TermsCheckbox } from './TermsCheckbox';

/**
 * The gate a member meets first while they have no display name or username, or have not accepted
 * the terms of service (Google sign-in, accounts made before sign-up asked): nothing else of the
 * app shows until they are given. Only what is missing is asked. Then the member goes on to the
 * page they asked for (the dashboard from the sign-in pages), greeted as a new member.
 */
export default function ProfileSetupPage() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { error, submitting, run } = useSubmitState();
  // The answer of the update, applied to the session once the member is where they go next.
  const [done, setDone] = useState<{ me: Me; path: string } | null>(null);
  useEffect(() => {
    if (!done || location.pathname !== done.path) return;
    queryClient.setQueryData(ME_QUERY_KEY, done.me);
    session.applyUser(done.me);
  }, [done, location.pathname, queryClient, session]);
  useDocumentTitle(t('profileSetup.pageTitle'));
  const user = session.status === 'signed-in' ? session.user : null;

  const askNames = user?.needsProfile === true;
  const askTerms = user?.needsTerms === true;
  const form = useForm({
    initialValues: {
      displayName: user?.displayName ?? '',
      username: user?.username ?? '',
      acceptTerms: false,
    },
    validate: {
      displayName: (value) => (askNames ? displayNameKey(value) : null),
      username: (value) => (askNames ? usernameKey(value) : null),
      acceptTerms: (value) => (askTerms ? acceptTermsKey(value) : null),
    },
  });
  if (!user) return null;

  return (
    <AuthCard
      title={t(askNames ? 'profileSetup.title' : 'profileSetup.termsTitle')}
      subtitle={t(askNames ? 'profileSetup.intro' : 'profileSetup.termsIntro')}
    >
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
                ...(askNames
                  ? { displayName: values.displayName.trim(), username: values.username.trim() }
                  : {}),
                ...(askTerms ? { acceptTerms: true as const } : {}),
              });
              // From the sign-in pages (or the callback) the member lands on their dashboard,
              // greeted as new when the names were asked (one who only accepted the terms had
              // an account already). The gate lifts once there: lifted before, the page under it
              // (the sign-in callback) would send the member on again, without the greeting.
              const onAuthPage = /^\/(login|signup|auth\/callback)/.test(location.pathname);
              const home = dashboardPath(me.id);
              if (onAuthPage || location.pathname === '/' || location.pathname === home) {
                navigate(home, {
                  replace: true,
                  state: askNames ? { newMember: true } : undefined,
                });
                setDone({ me, path: home });
              } else setDone({ me, path: location.pathname });
            } catch (err) {
              const fields = err instanceof ApiError ? err.fields : undefined;
              if (fields?.username || fields?.displayName || fields?.acceptTerms) {
                form.setErrors(fields);
                return;
              }
              throw err;
            }
          }),
        )}
      >
        <Stack>
          {askNames && <NameFields form={form} autoFocus />}
          {askTerms && (
            <TermsCheckbox
              checked={form.values.acceptTerms}
              onChange={(checked) => form.setFieldValue('acceptTerms', checked)}
              error={form.errors.acceptTerms}
            />
          )}
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
