import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { toIso } from '../db/rows';
import { sql } from '../db/sql';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /**
   * Ids of the members the e-mail names besides its recipient (a chat message's sender, the
   * actors of a digest): deleting one of their accounts deletes it from the outbox.
   */
  about?: readonly string[];
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

export interface Mailer {
  transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** Newest first; only the outbox transport keeps mail. */
  list(limit?: number): Promise<OutboxMail[]>;
  close(): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is kept in the database outbox, which the
 * loopback-only /api/dev/mail and /dev/mail show, so confirmation links work with no set-up.
 */
export function createMailer(opts: {
  database: Database;
  smtpUrl?: string;
  from: string;
  log?: FastifyBaseLogger;
}): Mailer {
  const { database, smtpUrl, from } = opts;
  const list: Mailer['list'] = async (limit = 50) => {
    const rows = await database.query<{
      id: number | string;
      to: string;
      subject: string;
      text: string;
      html: string | null;
      created_at: Date;
    }>(
      sql`select id, "to", subject, text, html, created_at from mail_outbox
          order by id desc limit ${limit}`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      createdAt: toIso(r.created_at),
    }));
  };
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    return {
      transport: 'smtp',
      async send({ about: _about, ...message }) {
        await transporter.sendMail({ from, ...message });
      },
      list,
      async close() {
        transporter.close();
      },
    };
  }
  return {
    transport: 'outbox',
    async send(message) {
      await database.query(
        sql`insert into mail_outbox ("to", subject, text, html, about_user_ids, reply_to)
            values (${message.to}, ${message.subject}, ${message.text}, ${message.html ?? null},
              ${[...new Set(message.about ?? [])]}, ${message.replyTo ?? null})`,
      );
      opts.log?.info({ to: message.to, subject: message.subject }, 'mail stored in the outbox');
    },
    list,
    async close() {},
  };
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * The one layout of Scaffale's e-mails, as plain text and simple HTML in the reader's language:
 * a greeting, an introduction, an optional quoted excerpt, one call to action, a closing note and
 * the signature. Every feature that writes to members builds its e-mails through this.
 */
export function layoutEmail(parts: {
  lang: string;
  to: string;
  subject: string;
  greeting: string;
  intro: string;
  quote?: string;
  action: { label: string; link: string };
  note: string;
  signature: string;
}): MailMessage {
  const { lang, greeting, intro, quote, action, note, signature } = parts;
  const text = [
    greeting,
    intro,
    ...(quote ? [quote] : []),
    `${action.label}: ${action.link}`,
    note,
    signature,
  ].join('\n\n');
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}"><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1b1e">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${quote ? `<blockquote style="margin: 0 0 16px; padding: 8px 14px; border-left: 3px solid #ced4da; white-space: pre-wrap">${escapeHtml(quote)}</blockquote>\n` : ''}<p><a href="${escapeHtml(action.link)}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #fff; border-radius: 6px; text-decoration: none">${escapeHtml(action.label)}</a></p>
<p style="font-size: 13px; color: #555">${escapeHtml(action.link)}</p>
<p style="font-size: 13px; color: #555">${escapeHtml(note)}</p>
<p>${escapeHtml(signature)}</p>
</body></html>`;
  return { to: parts.to, subject: parts.subject, text, html };
}

/** The name an e-mail greets its recipient by: their display name, or their address's local part. */
export const greetingName = (name: string | null | undefined, email: string) =>
  name?.trim() || email.split('@')[0];
