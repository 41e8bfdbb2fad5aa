import { Anchor, Text } from '@mantine/core';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { LegalDocument } from './LegalDocument';
import { PRIVACY_MAILBOX } from './mailboxes';

export const PRIVACY_SECTIONS = [
  'controller',
  'data',
  'legalBasis',
  'use',
  'sharing',
  'retention',
  'rights',
  'cookies',
  'security',
  'transfers',
  'children',
  'changes',
  'authority',
  'contact',
] as const;

export default function PrivacyPolicyPage() {
  const { t } = useTranslation();
  return (
    <LegalDocument
      doc="privacy"
      sections={PRIVACY_SECTIONS}
      mailbox={PRIVACY_MAILBOX}
      extras={{
        cookies: (
          <Text>
            <Anchor component={Link} to="/cookie-policy">
              {t('legal.privacy.cookiePolicyLink')}
            </Anchor>
          </Text>
        ),
        authority: (
          <Text>
            <Anchor href="https://www.garanteprivacy.it/" target="_blank" rel="noopener noreferrer">
              {t('legal.privacy.authorityLink')}
            </Anchor>
          </Text>
        ),
      }}
    />
  );
}
