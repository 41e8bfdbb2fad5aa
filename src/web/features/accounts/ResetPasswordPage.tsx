import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useSearchParams } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AuthCard, AuthFooterLink, AuthSubmit } from './AuthCard';
import { resetPassword } from './api';
import { confirmPasswordKey, newPasswordKey } from './validation';
import { useSubmitState } from './useSubmitState';
import { NewPasswordFields } from './NewPasswordFields';

/** Target of the reset e-mail's link: /reset-password?token=… (or ?error=INVALID_TOKEN). */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(
    token && !params.get('error') ? 'form' : 'invalid',
  );
  const { error, submitting, run } = useSubmitState();
  useDocumentTitle(t('auth.reset.pageTitle'));

  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: {
      password: newPasswordKey,
      confirmPassword: (value, values) => confirmPasswordKey(value, values.password),
    },
  });

  if (state === 'invalid') {
    return (
      <AuthCard title={t('auth.reset.invalidTitle')}>
        <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
          {error ?? t('auth.reset.invalid')}
        </Alert>
        <Button component={Link} to="/login?forgot=1">
          {t('auth.reset.requestNew')}
        </Button>
      </AuthCard>
    );
  }

  if (state === 'done') {
    return (
      <AuthCard title={t('auth.reset.successTitle')}>
        <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status">
          {t('auth.reset.success')}
        </Alert>
        <Button component={Link} to="/login">
          {t('auth.reset.goToLogin')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.reset.title')} subtitle={t('auth.reset.text')}>
      {error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
          {error}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit(async ({ password }) => {
          await run(
            async () => {
              await resetPassword(token ?? '', password);
              // A reset ends every session of the member, this browser's included.
              if (session.status === 'signed-in') await session.signOut().catch(() => {});
              setState('done');
            },
            (err) => {
              if (err instanceof ApiError && err.status === 400 && /token/i.test(err.code))
                setState('invalid');
            },
          );
        })}
      >
        <Stack>
          <NewPasswordFields
            form={form}
            labelKey="auth.fields.newPassword"
            confirmLabelKey="auth.fields.confirmNewPassword"
          />
          <AuthSubmit loading={submitting}>{t('auth.reset.submit')}</AuthSubmit>
        </Stack>
      </form>
      <AuthFooterLink to="/login">{t('auth.forgot.backToLogin')}</AuthFooterLink>
    </AuthCard>
  );
}
