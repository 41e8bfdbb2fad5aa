import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, Navigate, useNavigate } from '@web/lib/router';
import { SIGNUP_REDIRECT_DELAY_MS } from '@shared/constants';
import { PageLoader } from '../../components/PageLoader';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { NameFields } from './NameFields';
import { AuthCard, AuthFooterLink, AuthSubmit } from './AuthCard';
import { GoogleButton } from './GoogleButton';
import { signUp } from './api';
import {
  confirmPasswordKey,
  displayNameKey,
  emailKey,
  newPasswordKey,
  usernameKey,
} from './validation';
import { ApiError } from '../../lib/api';
import { useSubmitState } from './useSubmitState';
import { NewPasswordFields } from './NewPasswordFields';

export default function SignupPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [created, setCreated] = useState(false);
  const { error, setError, submitting, run } = useSubmitState();
  useDocumentTitle(t('auth.signup.pageTitle'));

  const form = useForm({
    initialValues: { displayName: '', username: '', email: '', password: '', confirmPassword: '' },
    validate: {
      displayName: displayNameKey,
      username: usernameKey,
      email: (value) => emailKey(value),
      password: newPasswordKey,
      confirmPassword: (value, values) => confirmPasswordKey(value, values.password),
    },
  });
  const fieldError = (key: unknown) => (key ? t(String(key)) : undefined);

  // Created view, then the login page after 2 s.
  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => navigate('/login'), SIGNUP_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [created, navigate]);

  if (session.status === 'signed-in' && !created) return <Navigate to="/" replace />;
  if (session.status === 'loading') return <PageLoader />;

  if (created) {
    return (
      <AuthCard title={t('auth.signup.createdTitle')}>
        <Alert color="green" icon={<IconMailCheck aria-hidden />} role="status">
          {t('auth.signup.createdText')}
        </Alert>
        <Text c="dimmed" ta="center" size="sm">
          {t('auth.signup.redirecting')}
        </Text>
        <Button component={Link} to="/login" variant="default">
          {t('auth.signup.loginLink')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle')}>
      {error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
          {error}
        </Alert>
      )}
      <GoogleButton redirectTo={null} onError={setError} />
      <form
        noValidate
        onSubmit={form.onSubmit(async (values) => {
          await run(async () => {
            try {
              await signUp(values);
            } catch (err) {
              // A taken or refused username (or name) is said beside its field.
              const fields = err instanceof ApiError ? err.fields : undefined;
              if (fields?.username || fields?.name) {
                if (fields.username) form.setFieldError('username', fields.username);
                if (fields.name) form.setFieldError('displayName', fields.name);
                return;
              }
              throw err;
            }
            setCreated(true);
          });
        })}
      >
        <Stack>
          <NameFields form={form} />
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            withAsterisk
            {...form.getInputProps('email')}
            error={fieldError(form.errors.email)}
          />
          <NewPasswordFields
            form={form}
            labelKey="auth.fields.password"
            confirmLabelKey="auth.fields.confirmPassword"
          />
          <AuthSubmit loading={submitting}>{t('auth.signup.submit')}</AuthSubmit>
        </Stack>
      </form>
      <AuthFooterLink lead={t('auth.signup.haveAccount')} to="/login" underline="always">
        {t('auth.signup.loginLink')}
      </AuthFooterLink>
    </AuthCard>
  );
}
