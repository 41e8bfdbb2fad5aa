import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../platform/mail';
import type { NotificationService } from '../../platform/notifications';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import { createTestNotifications } from '../../test/notifications';
import { savedSearchAlertsSettled } from './alerts';
import { createSavedSearchDigest } from './digest';

let t: TestApp;
let mailer: Mailer;
let notifications: NotificationService;
let digest: ReturnType<typeof createSavedSearchDigest>;
let clock = new Date('2026-06-01T09:00:00Z');
let ada: Member;
let bruno: Member;
const call = callAs(() => t);
const quiet = { error() {} };

beforeAll(async () => {
  const database = await createTestDatabase();
  mailer = createMailer({ database, from: 'Scaffale <no-reply@scaffale.local>' });
  notifications = createTestNotifications({ database, mailer, now: () => clock });
  t = await createTestApp({ database, deps: { mailer, notifications, now: () => clock } });
  [ada, bruno] = await Promise.all([
    createMember(t, { displayName: 'Ada Lovelace' }),
    createMember(t, { displayName: 'Bruno Bianchi' }),
  ]);
  digest = createSavedSearchDigest({
    database,
    mailer,
    notifications,
    publicUrl: 'http://localhost:3000',
    now: () => clock,
    log: quiet,
  });
}, 120_000);

beforeEach(async () => {
  await savedSearchAlertsSettled();
  for (const table of [
    'saved_searches',
    'saved_search_digests',
    'book_listings',
    'notifications',
    'notification_settings',
    'mail_outbox',
  ])
    await t.database.query(`delete from ${table}`);
  await t.database.query(`update users set email_notifications = true, preferred_language = 'en'`);
  // Each test starts on a new day, at 09:00 UTC.
  clock = new Date(
    Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate() + 3, 9),
  );
});

const later = (hours: number) => {
  clock = new Date(clock.getTime() + hours * 3600_000);
};
/** The member's e-mails, with the no-break spaces of formatted money read as spaces. */
const outbox = async (to: Member) =>
  (
    await t.database.query<{ subject: string; text: string; html: string }>(
      'select subject, text, html from mail_outbox where "to" = $1 order by id',
      [to.email],
    )
  ).map((m) => ({ ...m, text: m.text.replace(/[\u00a0\u202f]/g, ' ') }));
async function save(who: Member, name: string, q: string) {
  const res = await call(who, 'POST', '/api/me/saved-searches', { name, filters: { q } });
  expect(res.statusCode, res.body).toBe(201);
}
async function list(who: Member, title: string, author: string, price = 7.5) {
  const res = await call(who, 'POST', '/api/listings', {
    mode: 'full',
    title,
    author,
    genre: 'fiction',
    listingType: 'sell',
    price,
    description: 'Buone condizioni',
  });
  expect(res.statusCode, res.body).toBe(201);
  await savedSearchAlertsSettled();
  return res.json().id as string;
}

describe('the daily digest of saved-search matches', () => {
  it('lists the new matches in the member’s language, with prices, searches and links', async () => {
    await t.database.query(`update users set preferred_language = 'it' where id = $1`, [ada.id]);
    await save(ada, 'Classici', 'gattopardo');
    await save(ada, 'Eco', 'rosa');
    const g = await list(bruno, 'Il Gattopardo', 'Giuseppe Tomasi di Lampedusa', 7.5);
    const r = await list(bruno, 'Il nome della rosa', 'Umberto Eco', 12);
    expect(await digest.run()).toBe(1);
    const [mail] = await outbox(ada);
    expect(mail.subject).toBe('2 nuovi libri per le tue ricerche salvate');
    expect(mail.text).toContain('Ciao Ada Lovelace,');
    expect(mail.text).toContain(
      '«Il Gattopardo», Giuseppe Tomasi di Lampedusa («Classici») — 7,50 €',
    );
    expect(mail.text).toContain(`http://localhost:3000/library/book/${g}`);
    expect(mail.text).toContain('«Il nome della rosa», Umberto Eco («Eco») — 12,00 €');
    expect(mail.text).toContain(`http://localhost:3000/library/book/${r}`);
    expect(mail.text).toContain(`http://localhost:3000/profile/${ada.id}/saved-searches`);
    expect(mail.text).toContain(`http://localhost:3000/profile/${ada.id}/settings#notifications`);
    expect(mail.html).toContain('<html lang="it">');
    // The hourly digest of the notification centre leaves these to this one.
    later(2);
    expect(await notifications.runDigests()).toBe(0);
  });

  it('sends at most one a day, from 07:00 UTC, and the next day only what came since', async () => {
    await save(ada, 'Dune', 'dune');
    clock = new Date(
      Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate(), 6, 30),
    );
    await list(bruno, 'Dune', 'Frank Herbert');
    expect(await digest.run()).toBe(0); // before 07:00
    later(1);
    expect(await digest.run()).toBe(1);
    let mails = await outbox(ada);
    expect(mails[0].subject).toBe('A new book for your saved searches');
    expect(mails[0].text).toContain(
      '“Dune”, Frank Herbert (“Dune”) — $7.50'.replace('$7.50', '€7.50'),
    );
    await list(bruno, 'Dune Messiah', 'Frank Herbert');
    later(10);
    expect(await digest.run()).toBe(0); // same day
    later(10); // the next day, 03:30: not yet
    expect(await digest.run()).toBe(0);
    later(4);
    expect(await digest.run()).toBe(1);
    mails = await outbox(ada);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain('Dune Messiah');
    expect(mails[1].text).not.toContain('“Dune”, Frank');
    later(24);
    expect(await digest.run()).toBe(0); // nothing new
  });

  it('honours the e-mail switches: the type’s and the profile’s', async () => {
    await save(ada, 'Eco', 'eco');
    const off = await call(ada, 'PATCH', '/api/notifications/settings', {
      'savedSearch.match': { email: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    await list(bruno, 'Il pendolo di Foucault', 'Umberto Eco');
    expect(await digest.run()).toBe(0);
    // Turned back on later: what came while it was off is not sent afterwards.
    await call(ada, 'PATCH', '/api/notifications/settings', {
      'savedSearch.match': { email: true },
    });
    later(24);
    expect(await digest.run()).toBe(0);
    await t.database.query('update users set email_notifications = false where id = $1', [ada.id]);
    await list(bruno, 'Baudolino', 'Umberto Eco');
    later(24);
    expect(await digest.run()).toBe(0);
    expect(await outbox(ada)).toHaveLength(0);
    // The bell still has them.
    const bell = await call(ada, 'GET', '/api/notifications');
    expect(
      bell.json().items.filter((n: { type: string }) => n.type === 'savedSearch.match'),
    ).toHaveLength(2);
  });

  it('leaves out a book sold meanwhile; nothing left means no e-mail', async () => {
    await save(ada, 'Calvino', 'calvino');
    const id = await list(bruno, 'Le città invisibili', 'Italo Calvino');
    await call(bruno, 'POST', `/api/listings/${id}/status`, { status: 'sold' });
    expect(await digest.run()).toBe(0);
    expect(await outbox(ada)).toHaveLength(0);
  });

  it('a failed send gives the day back and keeps the matches', async () => {
    await save(ada, 'Levi', 'levi');
    await list(bruno, 'Se questo è un uomo', 'Primo Levi');
    const failing = createSavedSearchDigest({
      database: t.database,
      mailer: { ...mailer, send: async () => Promise.reject(new Error('SMTP down')) },
      notifications,
      publicUrl: 'http://localhost:3000',
      now: () => clock,
      log: quiet,
    });
    expect(await failing.run()).toBe(0);
    expect(await digest.run()).toBe(1);
    expect((await outbox(ada))[0].text).toContain('Se questo è un uomo');
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('two server processes on PostgreSQL', () => {
  it('send one digest between them', async () => {
    await save(ada, 'Morante', 'morante');
    await list(bruno, 'La Storia', 'Elsa Morante');
    const [{ name }] = await t.database.query<{ name: string }>(
      'select current_database() as name',
    );
    const target = new URL(pgUrl!);
    target.pathname = `/${name}`;
    const script = fileURLToPath(new URL('./digest-process.ts', import.meta.url));
    const start = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, DATABASE_URL: target.toString(), NOW: clock.toISOString() },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      const lines = createInterface({ input: child.stdout });
      const messages: Record<string, unknown>[] = [];
      const waiters: (() => void)[] = [];
      lines.on('line', (line) => {
        messages.push(JSON.parse(line));
        waiters.splice(0).forEach((w) => w());
      });
      const next = (key: string) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no ${key}: ${stderr}`)), 60_000);
          const check = () => {
            const found = messages.find((m) => key in m);
            if (found) {
              clearTimeout(timer);
              resolve(found);
            } else waiters.push(check);
          };
          check();
        });
      return { child, next };
    };
    const processes = [start(), start()];
    await Promise.all(processes.map((p) => p.next('ready')));
    for (const p of processes) p.child.stdin.write('go\n');
    const sent = await Promise.all(processes.map((p) => p.next('sent')));
    expect(sent.map((m) => m.sent as number).reduce((a, b) => a + b)).toBe(1);
    expect(await outbox(ada)).toHaveLength(1);
  }, 120_000);
});
