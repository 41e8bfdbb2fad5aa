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
  return (
    <LegalDocument
      doc="privacy"
      sections={PRIVACY_SECTIONS}
      mailbox={PRIVACY_MAILBOX}
      links={{
        cookies: { to: '/cookie-policy', labelKey: 'legal.privacy.cookiePolicyLink' },
        authority: {
          href: 'https://www.garanteprivacy.it/',
          labelKey: 'legal.privacy.authorityLink',
        },
      }}
    />
  );
}
