import nodemailer from 'nodemailer';
import { desc } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
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
    const rows = await database.db
      .select()
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.id))
      .limit(limit);
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  };
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    return {
      transport: 'smtp',
      async send(message) {
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
      await database.db.insert(mailOutbox).values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
      });
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
