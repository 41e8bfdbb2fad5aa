import { LegalDocument } from './LegalDocument';
import { LEGAL_MAILBOX } from './mailboxes';
import { TermsFee } from '../payments';

export const TERMS_SECTIONS = [
  'acceptance',
  'eligibility',
  'account',
  'service',
  'listings',
  'trades',
  'buyerProtection',
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
  return (
    <LegalDocument
      doc="terms"
      sections={TERMS_SECTIONS}
      mailbox={LEGAL_MAILBOX}
      extras={{ buyerProtection: <TermsFee /> }}
      links={{ privacy: { to: '/privacy-policy', labelKey: 'legal.terms.privacyPolicyLink' } }}
    />
  );
}
