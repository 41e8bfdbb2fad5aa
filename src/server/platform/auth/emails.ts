import type { Language } from '@shared/constants';
import { escapeHtml, type MailMessage } from '../mail';
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
  const text = [greeting, '', intro, '', link, '', expiry, ignore, '', signature].join('\n');
  const html = `<!doctype html>
<html lang="${lang}"><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1b1e">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #fff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="font-size: 13px; color: #555">${escapeHtml(link)}</p>
<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>
<p>${escapeHtml(signature)}</p>
</body></html>`;
  return { to: user.email, subject: t(lang, `auth.email.${kind}.subject`), text, html };
}

export const verificationEmail = (lang: Language, user: Recipient, link: string) =>
  actionEmail(lang, 'verify', user, link);

export const resetPasswordEmail = (lang: Language, user: Recipient, link: string) =>
  actionEmail(lang, 'reset', user, link);
