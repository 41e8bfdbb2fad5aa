import { Anchor, Checkbox, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from '@web/lib/reactI18n';
import { dataText } from '@web/lib/translator';

/** A legal page in a new tab, so the form and what was typed in it stay where they are. */
function NewTabLink({ href, children }: { href: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" inherit underline="always">
      {children}
      <VisuallyHidden> {t('auth.signup.opensInNewTab')}</VisuallyHidden>
    </Anchor>
  );
}

/**
 * The required "I accept the terms of service and the privacy policy" box of the sign-up form
 * and of the first-visit page. `error` is a locale key (a language switch re-words it).
 */
export function TermsCheckbox({
  checked,
  onChange,
  error,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: unknown;
}) {
  const { t } = useTranslation();
  return (
    <Checkbox
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
      required
      aria-required
      error={error ? dataText(t, String(error)) : undefined}
      label={
        <Trans
          i18nKey="auth.signup.acceptTerms"
          components={{
            terms: <NewTabLink href="/terms-of-service" />,
            privacy: <NewTabLink href="/privacy-policy" />,
          }}
        />
      }
    />
  );
}

/** The form rule: the box must be ticked. */
export const acceptTermsKey = (value: boolean) => (value ? null : 'auth.errors.termsRequired');
