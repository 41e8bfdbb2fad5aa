import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { dataText } from '@web/lib/translator';
import { Link, Navigate } from '@web/lib/router';
import { PageLoader } from '../../components/PageLoader';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { NameFields } from './NameFields';
import { AuthCard, AuthFooterLink, AuthSubmit } from './AuthCard';
import { GoogleButton } from './GoogleButton';
import { sendVerificationEmail, signUp } from './api';
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
import { acceptTermsKey, TermsCheckbox } from './TermsCheckbox';

export default function SignupPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [created, setCreated] = useState(false);
  const { error, setError, submitting, run } = useSubmitState();
  useDocumentTitle(t('auth.signup.pageTitle'));

  const form = useForm({
    initialValues: {
      displayName: '',
      username: '',
      email: '',
      password: '',
      confirmPassword: '',
      acceptTerms: false,
    },
    validate: {
      displayName: displayNameKey,
      username: usernameKey,
      email: (value) => emailKey(value),
      password: newPasswordKey,
      confirmPassword: (value, values) => confirmPasswordKey(value, values.password),
      acceptTerms: acceptTermsKey,
    },
  });
  const fieldError = (key: unknown) => (key ? dataText(t, String(key)) : undefined);

  // The check-your-e-mail view stays until the member leaves it (issue 33): they may need to
  // send the link again, and a page that moves on by itself loses what it said.
  const [resent, setResent] = useState<'sent' | string | null>(null);
  const resend = async () => {
    try {
      await sendVerificationEmail(form.values.email.trim());
      setResent('sent');
    } catch (err) {
      setResent(err instanceof Error ? err.message : t('errors.general'));
    }
  };

  if (session.status === 'signed-in' && !created) return <Navigate to="/" replace />;
  if (session.status === 'loading') return <PageLoader />;

  if (created) {
    return (
      <AuthCard title={t('auth.signup.createdTitle')}>
        <Alert color="green" icon={<IconMailCheck aria-hidden />} role="status">
          {t('auth.signup.createdText')}
        </Alert>
        <Text c="dimmed" ta="center" size="sm">
          {t('auth.signup.notArrived')}
        </Text>
        <Button variant="light" onClick={() => void resend()}>
          {t('auth.signup.resend')}
        </Button>
        {resent && (
          <Alert color={resent === 'sent' ? 'green' : 'red'} role="status">
            {resent === 'sent' ? t('auth.signup.resent') : resent}
          </Alert>
        )}
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
              if (fields?.username || fields?.name || fields?.acceptTerms) {
                if (fields.username) form.setFieldError('username', fields.username);
                if (fields.name) form.setFieldError('displayName', fields.name);
                if (fields.acceptTerms) form.setFieldError('acceptTerms', fields.acceptTerms);
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
          <TermsCheckbox
            checked={form.values.acceptTerms}
            onChange={(checked) => form.setFieldValue('acceptTerms', checked)}
            error={form.errors.acceptTerms}
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
