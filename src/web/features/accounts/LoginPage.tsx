import { Alert, Anchor, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { dataText } from '@web/lib/translator';
import { useNavigate, useSearchParams } from '@web/lib/router';
import { PageLoader } from '../../components/PageLoader';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/notify';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AuthCard, AuthFooterLink, AuthSubmit } from './AuthCard';
import { GoogleButton } from './GoogleButton';
import { requestPasswordReset, signIn } from './api';
import { dashboardPath, safeRedirectPath } from './safeRedirect';
import { emailKey, requiredKey } from './validation';
import { useSubmitState } from './useSubmitState';

export default function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = safeRedirectPath(params.get('redirect_to'));
  const verified = params.get('verified') === '1';
  const [view, setView] = useState<'login' | 'forgot'>(
    params.get('forgot') === '1' ? 'forgot' : 'login',
  );
  const { error, setError, submitting, run } = useSubmitState();
  const [notice, setNotice] = useState<string | null>(null);
  const arrivedSignedOut = useRef(false);
  useDocumentTitle(view === 'login' ? t('auth.login.pageTitle') : t('auth.forgot.pageTitle'));

  // Arriving signed in goes home; signing in here (or in another tab while this page is open) goes
  // on to the return path or the dashboard.
  useEffect(() => {
    if (session.status === 'signed-out') arrivedSignedOut.current = true;
    if (session.status !== 'signed-in') return;
    if (arrivedSignedOut.current) {
      navigate(redirectTo ?? dashboardPath(session.user.id), { replace: true });
    } else if (verified) {
      // The confirmation link signed the member in: say so and open the dashboard.
      notify('green', t('auth.login.verified'));
      // A member who just confirmed is new here: the dashboard welcomes them (not "welcome back").
      navigate(dashboardPath(session.user.id), { replace: true, state: { newMember: true } });
    } else {
      navigate('/', { replace: true });
    }
  }, [session, navigate, redirectTo, verified, t]);

  const loginForm = useForm({
    initialValues: { identifier: '', password: '' },
    validate: {
      identifier: requiredKey,
      password: (value) => (value ? null : 'validation.required'),
    },
  });
  const forgotForm = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => emailKey(value, 'auth.errors.emailRequired') },
  });
  const fieldError = (key: unknown) => (key ? dataText(t, String(key)) : undefined);

  if (session.status !== 'signed-out') return <PageLoader />;

  const switchTo = (next: 'login' | 'forgot') => {
    setError(null);
    setNotice(null);
    setView(next);
  };

  if (view === 'forgot') {
    return (
      <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.text')}>
        <form
          noValidate
          onSubmit={forgotForm.onSubmit(async ({ email }) => {
            await run(async () => {
              await requestPasswordReset(email);
              // The same confirmation whatever the address: nobody learns who has an account.
              switchTo('login');
              setNotice(t('auth.passwordResetSent'));
            });
          })}
        >
          <Stack>
            {error && (
              <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
                {error}
              </Alert>
            )}
            <TextInput
              label={t('auth.fields.email')}
              type="email"
              autoComplete="email"
              withAsterisk
              {...forgotForm.getInputProps('email')}
              error={fieldError(forgotForm.errors.email)}
            />
            <AuthSubmit loading={submitting}>{t('auth.forgot.submit')}</AuthSubmit>
            <Anchor component="button" type="button" onClick={() => switchTo('login')} ta="center">
              {t('auth.forgot.backToLogin')}
            </Anchor>
          </Stack>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      {verified && (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />}>
          {t('auth.login.verified')}
        </Alert>
      )}
      {notice && (
        <Alert color="green" icon={<IconCircleCheck aria-hidden />}>
          {notice}
        </Alert>
      )}
      {error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
          {error}
        </Alert>
      )}
      <GoogleButton redirectTo={redirectTo} onError={setError} />
      <form
        noValidate
        onSubmit={loginForm.onSubmit(async ({ identifier, password }) => {
          setNotice(null);
          await run(async () => {
            const { user } = await signIn(identifier, password);
            session.applyUser(user);
          });
        })}
      >
        <Stack>
          <TextInput
            label={t('auth.fields.identifier')}
            autoComplete="username"
            withAsterisk
            {...loginForm.getInputProps('identifier')}
            error={fieldError(loginForm.errors.identifier)}
          />
          <PasswordInput
            label={t('auth.fields.password')}
            autoComplete="current-password"
            withAsterisk
            {...loginForm.getInputProps('password')}
            error={fieldError(loginForm.errors.password)}
          />
          <Group justify="flex-end">
            <Anchor component="button" type="button" size="sm" onClick={() => switchTo('forgot')}>
              {t('auth.login.forgotPassword')}
            </Anchor>
          </Group>
          <AuthSubmit loading={submitting}>{t('auth.login.submit')}</AuthSubmit>
        </Stack>
      </form>
      <AuthFooterLink lead={t('auth.login.needAccount')} to="/signup" underline="always">
        {t('auth.login.signupLink')}
      </AuthFooterLink>
    </AuthCard>
  );
}
