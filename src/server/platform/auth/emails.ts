import { greetingName } from '../mail';
import type { Language } from '@shared/constants';
import { layoutEmail, type MailMessage } from '../mail';
import { t } from '../i18n';

interface Recipient {
  email: string;
  name?: string | null;
}

/**
 * One call-to-action e-mail of the accounts (`auth.email.<key>.*`: subject, intro, action), as
 * plain text and as simple HTML, in the reader's language. Sent to the address's owner only.
 */
function authEmail(
  lang: Language,
  key: 'verify' | 'reset' | 'exists' | 'passwordChanged',
  user: Recipient,
  link: string,
  note: string,
): MailMessage {
  const name = greetingName(user.name, user.email);
  return layoutEmail({
    lang,
    to: user.email,
    subject: t(lang, `auth.email.${key}.subject`),
    greeting: t(lang, 'auth.email.greeting', { name }),
    intro: t(lang, `auth.email.${key}.intro`),
    action: { label: t(lang, `auth.email.${key}.action`), link },
    note,
    signature: t(lang, 'auth.email.signature'),
  });
}

/** Confirming an address, or resetting a password: the link expires, and may be ignored. */
const actionEmail = (lang: Language, kind: 'verify' | 'reset', user: Recipient, link: string) =>
  authEmail(
    lang,
    kind,
    user,
    link,
    `${t(lang, `auth.email.${kind}.expiry`)} ${t(lang, `auth.email.${kind}.ignore`)}`,
  );

export const verificationEmail = (lang: Language, user: Recipient, link: string) =>
  actionEmail(lang, 'verify', user, link);

export const resetPasswordEmail = (lang: Language, user: Recipient, link: string) =>
  actionEmail(lang, 'reset', user, link);

/**
 * To the owner of an address someone tried to sign up with: the sign-up answers as for a new
 * address (so it tells nobody which addresses have accounts), and this mail tells the owner.
 */
export const accountExistsEmail = (
  lang: Language,
  user: Recipient,
  links: { signIn: string; reset: string },
): MailMessage =>
  authEmail(
    lang,
    'exists',
    user,
    links.signIn,
    `${t(lang, 'auth.email.exists.reset', { link: links.reset })} ${t(lang, 'auth.email.exists.ignore')}`,
  );

/**
 * To a member whose password was just changed from their settings: if it was not them, the
 * reset link takes the account back (every other session has already ended).
 */
export const passwordChangedEmail = (
  lang: Language,
  user: Recipient,
  links: { reset: string },
): MailMessage =>
  authEmail(lang, 'passwordChanged', user, links.reset, t(lang, 'auth.email.passwordChanged.note'));
