export const PRIVACY_MAILBOX = 'privacy@scaffale.it';
export const LEGAL_MAILBOX = 'legal@scaffale.it';
