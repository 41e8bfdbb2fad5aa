import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, createTestDatabase } from '../test/app';
import type { Database } from '../db/client';
import { createMailer } from './mail';

interface Received {
  from: string | false;
  to: string[];
  raw: string;
}

/** A real SMTP server on a random loopback port that keeps every message it accepts. */
async function startSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : false,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read a body. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function headerBlock(raw: string): string {
  return raw.split(/\r?\n\r?\n/)[0];
}

describe('mailer over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let database: Database;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await smtp?.close();
    await database?.close();
  });

  it('delivers To, From, Reply-To, Subject and body to the SMTP server, and keeps no outbox copy', async () => {
    const mailer = createMailer({
      database,
      // The test server offers STARTTLS with a self-signed certificate; plain text is fine on loopback.
      smtpUrl: `smtp://127.0.0.1:${smtp.port}/?ignoreTLS=true`,
      from: 'Scaffale <no-reply@scaffale.test>',
    });
    expect(mailer.transport).toBe('smtp');
    await mailer.send({
      to: 'reader@example.org',
      replyTo: 'writer@example.org',
      subject: 'Conferma il tuo indirizzo',
      text: 'Ciao! Apri questo link per confermare: http://localhost:3000/verify?token=abc123',
    });
    await mailer.close();

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('no-reply@scaffale.test');
    expect(mail.to).toEqual(['reader@example.org']);
    const headers = headerBlock(mail.raw);
    expect(headers).toMatch(/^To: reader@example\.org$/m);
    expect(headers).toMatch(/^From: Scaffale <no-reply@scaffale\.test>$/m);
    expect(headers).toMatch(/^Reply-To: writer@example\.org$/m);
    expect(headers).toMatch(/^Subject: Conferma il tuo indirizzo$/m);
    expect(decodeQuotedPrintable(mail.raw)).toContain(
      'Ciao! Apri questo link per confermare: http://localhost:3000/verify?token=abc123',
    );
    // SMTP mail goes out; the outbox stays empty.
    expect(await mailer.list()).toEqual([]);
  });

  it('keeps a line break in a subject from becoming a new header', async () => {
    const mailer = createMailer({
      database,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}/?ignoreTLS=true`,
      from: 'Scaffale <no-reply@scaffale.test>',
    });
    await mailer.send({
      to: 'support@scaffale.test',
      subject: 'Hello\r\nBcc: victim@example.org',
      text: 'body',
    });
    await mailer.close();
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(['support@scaffale.test']);
    expect(headerBlock(mail.raw)).not.toMatch(/^Bcc:/im);
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const closed = await startSmtpServer();
    await closed.close();
    const mailer = createMailer({
      database,
      smtpUrl: `smtp://127.0.0.1:${closed.port}/?ignoreTLS=true&connectionTimeout=2000`,
      from: 'Scaffale <no-reply@scaffale.test>',
    });
    await expect(mailer.send({ to: 'a@example.org', subject: 's', text: 't' })).rejects.toThrow();
    await mailer.close();
  });
});

describe('mailer outbox', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('stores every message and lists them newest first, up to the limit', async () => {
    const mailer = createMailer({ database, from: 'Scaffale <no-reply@scaffale.test>' });
    expect(mailer.transport).toBe('outbox');
    await mailer.send({ to: 'one@example.org', subject: 'First', text: 'first text' });
    await mailer.send({
      to: 'two@example.org',
      subject: 'Second',
      text: 'second text',
      html: '<p>second</p>',
    });
    await mailer.send({ to: 'three@example.org', subject: 'Third', text: 'third text' });

    const all = await mailer.list();
    expect(all.map((m) => m.subject)).toEqual(['Third', 'Second', 'First']);
    expect(all[1]).toMatchObject({
      to: 'two@example.org',
      subject: 'Second',
      text: 'second text',
      html: '<p>second</p>',
    });
    expect(all[0].html).toBeNull();
    expect(Number.isNaN(Date.parse(all[0].createdAt))).toBe(false);
    expect((await mailer.list(2)).map((m) => m.subject)).toEqual(['Third', 'Second']);
  });
});

describe('outbox endpoints', async () => {
  const { inject, app } = await createTestApp();
  // buildApp's mailer is the outbox here (no SMTP_URL in tests).
  await inject({
    method: 'POST',
    url: '/api/contact',
    payload: { name: 'Anna', email: 'anna@example.org', subject: 'general', message: 'Ciao <b>' },
  });

  it('GET /api/dev/mail lists the outbox as JSON to a loopback client', async () => {
    const res = await inject({ method: 'GET', url: '/api/dev/mail' });
    expect(res.statusCode).toBe(200);
    const mails = res.json();
    expect(mails).toHaveLength(1);
    expect(Object.keys(mails[0]).sort()).toEqual(
      ['createdAt', 'html', 'id', 'subject', 'text', 'to'].sort(),
    );
    expect(mails[0].to).toBe('support@scaffale.local');
  });

  it('GET /dev/mail shows the outbox page, escaped, to a loopback client', async () => {
    const res = await inject({ method: 'GET', url: '/dev/mail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<h1>Mail outbox</h1>');
    expect(res.body).toContain('Ciao &lt;b&gt;');
    expect(res.body).not.toContain('Ciao <b>');
  });

  it('also answers loopback over IPv6', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/dev/mail', remoteAddress: '::1' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 to a client that is not on this machine, even with a forged X-Forwarded-For', async () => {
    for (const url of ['/api/dev/mail', '/dev/mail']) {
      const res = await app.inject({
        method: 'GET',
        url,
        remoteAddress: '203.0.113.5',
        headers: { 'x-forwarded-for': '127.0.0.1', 'accept-language': 'en' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
      expect(res.body).not.toContain('anna@example.org');
    }
  });
});
