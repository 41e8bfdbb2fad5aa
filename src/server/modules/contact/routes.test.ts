import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp } from '../../test/app';
import { contactMessages, mailOutbox } from '../../db/schema';
import type { Mailer } from '../../platform/mail';

const valid = {
  name: 'Giulia Rossi',
  email: 'giulia@example.org',
  subject: 'feedback',
  message: 'Adoro Scaffale!\nHo trovato una prima edizione di Calvino.',
};

// The route is rate limited per client address: each test speaks from its own address.
let nextHost = 10;
const newClient = () => `198.51.100.${nextHost++}`;

describe('POST /api/contact', async () => {
  const { inject, database } = await createTestApp({
    config: { supportEmail: 'help@scaffale.test' },
  });
  const post = (payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
    inject({
      method: 'POST',
      url: '/api/contact',
      payload: payload as object,
      headers,
      remoteAddress: remoteAddress ?? newClient(),
    });

  it('stores a valid message, e-mails it to SUPPORT_EMAIL with Reply-To, and answers 201', async () => {
    const res = await post(valid, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ id: expect.any(Number), received: true });

    const [row] = await database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, body.id));
    expect(row).toMatchObject({
      name: 'Giulia Rossi',
      email: 'giulia@example.org',
      subject: 'feedback',
      message: valid.message,
      language: 'en',
    });
    expect(row.ip).toMatch(/^198\.51\.100\./);

    const mails = await database.db.select().from(mailOutbox);
    const mail = mails.find((m) => m.subject.includes(`#${body.id}]`));
    expect(mail).toBeDefined();
    expect(mail!.to).toBe('help@scaffale.test');
    expect(mail!.subject).toBe(`[Scaffale contact #${body.id}] Feedback: Giulia Rossi`);
    expect(mail!.text).toContain('From: Giulia Rossi <giulia@example.org>');
    expect(mail!.text).toContain(valid.message);
  });

  it('trims the fields before storing them', async () => {
    const res = await post({
      ...valid,
      name: '  Marco  ',
      email: ' marco@example.org ',
      message: '  ciao  ',
    });
    expect(res.statusCode).toBe(201);
    const [row] = await database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, res.json().id));
    expect(row).toMatchObject({ name: 'Marco', email: 'marco@example.org', message: 'ciao' });
  });

  it('answers 400 with "This field is required" for every missing field, in English', async () => {
    const before = await database.db.select().from(contactMessages);
    const res = await post({}, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'Some fields are not valid.',
        fields: {
          name: 'This field is required',
          email: 'This field is required',
          subject: 'This field is required',
          message: 'This field is required',
        },
      },
    });
    expect(await database.db.select().from(contactMessages)).toHaveLength(before.length);
  });

  it('answers in Italian by default and for Accept-Language it', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'accept-language': 'it-IT,it;q=0.9,en;q=0.5' },
    ];
    for (const headers of variants) {
      const res = await post({ ...valid, name: '' }, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ name: 'Questo campo è obbligatorio' });
    }
  });

  it.each([
    ['name', { name: '   ' }],
    ['email', { email: '' }],
    ['message', { message: '\n \n' }],
    ['subject', { subject: '' }],
  ])('a blank %s is required', async (field, patch) => {
    const en = await post({ ...valid, ...patch }, { 'accept-language': 'en' });
    expect(en.statusCode).toBe(400);
    expect(en.json().error.fields).toEqual({ [field]: 'This field is required' });
    const it = await post({ ...valid, ...patch }, { 'accept-language': 'it' });
    expect(it.json().error.fields).toEqual({ [field]: 'Questo campo è obbligatorio' });
  });

  it.each(['not-an-email', 'giulia@', '@example.org', 'giulia example@org.it'])(
    'a malformed e-mail "%s" gives "Invalid email address"',
    async (email) => {
      const en = await post({ ...valid, email }, { 'accept-language': 'en' });
      expect(en.statusCode).toBe(400);
      expect(en.json().error.fields).toEqual({ email: 'Invalid email address' });
      const it = await post({ ...valid, email }, { 'accept-language': 'it' });
      expect(it.json().error.fields).toEqual({ email: 'Indirizzo email non valido' });
    },
  );

  it('rejects an unknown subject with 400', async () => {
    const res = await post({ ...valid, subject: 'spam' }, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.fields).toEqual({ subject: 'This value is not valid' });
    const it = await post({ ...valid, subject: 'spam' }, { 'accept-language': 'it' });
    expect(it.json().error.fields).toEqual({ subject: 'Questo valore non è valido' });
  });

  it('rejects wrong types and a non-object body with 400, never 500', async () => {
    for (const payload of [
      { ...valid, name: 42 },
      { ...valid, message: ['a'] },
      { ...valid, email: null },
    ]) {
      const res = await post(payload, { 'accept-language': 'en' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toBeDefined();
    }
    const text = await inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: newClient(),
      headers: { 'content-type': 'application/json' },
      payload: '"hello"',
    });
    expect(text.statusCode).toBe(400);
  });

  it('rejects a message longer than 5000 characters', async () => {
    const res = await post({ ...valid, message: 'x'.repeat(5001) }, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ message: 'This text is too long' });
  });

  it('refuses a post from another site with 403 and stores nothing', async () => {
    const before = await database.db.select().from(contactMessages);
    for (const headers of [
      { origin: 'https://evil.example', 'accept-language': 'en' },
      { origin: undefined, referer: 'https://evil.example/form', 'accept-language': 'en' },
    ] as Record<string, string>[]) {
      const res = await post(valid, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'forbidden', message: 'Access denied' } });
    }
    expect(await database.db.select().from(contactMessages)).toHaveLength(before.length);
  });

  it('answers 429 in the error format after 5 messages from one client', async () => {
    const client = newClient();
    for (let i = 0; i < 5; i++) {
      const ok = await post({ ...valid, message: `message ${i}` }, {}, client);
      expect(ok.statusCode).toBe(201);
    }
    const before = await database.db.select().from(contactMessages);
    const limited = await post(valid, { 'accept-language': 'en' }, client);
    expect(limited.statusCode).toBe(429);
    const error = limited.json().error;
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await database.db.select().from(contactMessages)).toHaveLength(before.length);

    const it = await post(valid, { 'accept-language': 'it' }, client);
    expect(it.statusCode).toBe(429);
    expect(it.json().error.message).not.toBe(error.message);

    // Another client is not affected.
    expect((await post(valid)).statusCode).toBe(201);
  });
});

describe('POST /api/contact when mail fails', async () => {
  const attempts: string[] = [];
  const brokenMailer: Mailer = {
    transport: 'smtp',
    async send(message) {
      attempts.push(message.to);
      throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    },
    async list() {
      return [];
    },
    async close() {},
  };
  const { inject, database } = await createTestApp({ deps: { mailer: brokenMailer } });

  it('still stores the message and answers 201', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '198.51.100.200',
      payload: valid,
    });
    expect(res.statusCode).toBe(201);
    expect(attempts).toEqual(['support@scaffale.local']);
    const rows = await database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, res.json().id));
    expect(rows).toHaveLength(1);
    expect(rows[0].message).toBe(valid.message);
  });
});
