import type { Language } from '@shared/constants';
import { layoutEmail, type MailMessage } from '../mail';
import { t } from '../i18n';

interface Recipient {
  email: string;
  name?: string | null;
}

/** One call-to-action e-mail, as plain text and as simple HTML, in the reader's language. */
function actionEmail(
  lang: Language,
  kind: 'verify' | 'reset',
  user: Recipient,
  link: string,
): MailMessage {
  const name = user.name?.trim() || user.email.split('@')[0];
  const greeting = t(lang, 'auth.email.greeting', { name });
  const intro = t(lang, `auth.email.${kind}.intro`);
  const action = t(lang, `auth.email.${kind}.action`);
  const expiry = t(lang, `auth.email.${kind}.expiry`);
  const ignore = t(lang, `auth.email.${kind}.ignore`);
  const signature = t(lang, 'auth.email.signature');
  return layoutEmail({
    lang,
    to: user.email,
    subject: t(lang, `auth.email.${kind}.subject`),
    greeting,
    intro,
    action: { label: action, link },
    note: `${expiry} ${ignore}`,
    signature,
  });
}

export const verificationEmail = (lang: Language, user: Recipient, link: string) =>
  actionEmail(lang, 'verify', user, link);

export const resetPasswordEmail = (lang: Language, user: Recipient, link: string) =>
  actionEmail(lang, 'reset', user, link);

/**
 * To the owner of an address someone tried to sign up with: the sign-up answers as for a new
 * address (so it tells nobody which addresses have accounts), and this mail tells the owner.
 */
export function accountExistsEmail(
  lang: Language,
  user: Recipient,
  links: { signIn: string; reset: string },
): MailMessage {
  const name = user.name?.trim() || user.email.split('@')[0];
  return layoutEmail({
    lang,
    to: user.email,
    subject: t(lang, 'auth.email.exists.subject'),
    greeting: t(lang, 'auth.email.greeting', { name }),
    intro: t(lang, 'auth.email.exists.intro'),
    action: { label: t(lang, 'auth.email.exists.action'), link: links.signIn },
    note: `${t(lang, 'auth.email.exists.reset', { link: links.reset })} ${t(lang, 'auth.email.exists.ignore')}`,
    signature: t(lang, 'auth.email.signature'),
  });
}

/**
 * To a member whose password was just changed from their settings: if it was not them, the
 * reset link takes the account back (every other session has already ended).
 */
export function passwordChangedEmail(
  lang: Language,
  user: Recipient,
  links: { reset: string },
): MailMessage {
  const name = user.name?.trim() || user.email.split('@')[0];
  return layoutEmail({
    lang,
    to: user.email,
    subject: t(lang, 'auth.email.passwordChanged.subject'),
    greeting: t(lang, 'auth.email.greeting', { name }),
    intro: t(lang, 'auth.email.passwordChanged.intro'),
    action: { label: t(lang, 'auth.email.passwordChanged.action'), link: links.reset },
    note: t(lang, 'auth.email.passwordChanged.note'),
    signature: t(lang, 'auth.email.signature'),
  });
}
