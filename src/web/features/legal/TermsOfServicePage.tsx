import { Anchor, Text } from '@mantine/core';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { LegalDocument } from './LegalDocument';
import { LEGAL_MAILBOX } from './mailboxes';

export const TERMS_SECTIONS = [
  'acceptance',
  'eligibility',
  'account',
  'service',
  'listings',
  'trades',
  'fees',
  'advertising',
  'content',
  'conduct',
  'reviews',
  'intellectualProperty',
  'privacy',
  'liability',
  'termination',
  'changes',
  'law',
  'contact',
] as const;

export default function TermsOfServicePage() {
  const { t } = useTranslation();
  return (
    <LegalDocument
      doc="terms"
      sections={TERMS_SECTIONS}
      mailbox={LEGAL_MAILBOX}
      extras={{
        privacy: (
          <Text>
            <Anchor component={Link} to="/privacy-policy">
              {t('legal.terms.privacyPolicyLink')}
            </Anchor>
          </Text>
        ),
      }}
    />
  );
}
