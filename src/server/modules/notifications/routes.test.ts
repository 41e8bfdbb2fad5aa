import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { createMailer } from '../../platform/mail';
import type { NotificationService } from '../../platform/notifications';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { callAs, createMember, type Member, type Method } from '../../test/members';
import { createTestNotifications, recordUserPushes } from '../../test/notifications';

const { realtime, pushed } = recordUserPushes((event) => event.type.startsWith('notification.'));

let t: TestApp;
let notifications: NotificationService;
let clock = new Date('2026-06-01T08:00:00Z');
let ada: Member;
let bruno: Member;
let carla: Member;

/** A notification centre on the test clock that sends its e-mails to the outbox (as a process). */
const centre = (database: Database, from = 'Scaffale <no-reply@scaffale.local>') => {
  const mailer = createMailer({ database, from });
  return {
    mailer,
    notifications: createTestNotifications({ database, realtime, mailer, now: () => clock }),
  };
};

beforeAll(async () => {
  const database = await createTestDatabase();
  const { mailer, notifications: service } = centre(database);
  notifications = service;
  t = await createTestApp({ database, deps: { mailer, realtime, notifications } });
  [ada, bruno, carla] = await Promise.all([
    createMember(t, { username: 'ada_bell', displayName: 'Ada Lovelace' }),
    createMember(t, { username: 'bruno_bell', displayName: 'Bruno Bianchi' }),
    createMember(t, { username: 'carla_bell', displayName: 'Carla Càrdone' }),
  ]);
}, 120_000);

beforeEach(async () => {
  for (const table of [
    'notifications',
    'notification_settings',
    'notification_digests',
    'connections',
    'mail_outbox',
  ])
    await t.database.query(`delete from ${table}`);
  await t.database.query(`update users set email_notifications = true, preferred_language = 'en'`);
  pushed.length = 0;
  // Each test starts two hours on, so no digest window carries over.
  clock = new Date(clock.getTime() + 2 * 3600_000);
});

const call = callAs(() => t);
type Switches = Record<string, { inApp?: unknown; email?: unknown }>;
const setSwitches = (who: Member, body: Switches) =>
  call(who, 'PATCH', '/api/notifications/settings', body);
/** Every type with its default switches, in the settings' order. */
const DEFAULTS = [
  { type: 'friend.request', inApp: true, email: true },
  { type: 'friend.accepted', inApp: true, email: true },
  { type: 'offer.received', inApp: true, email: true },
  { type: 'offer.answered', inApp: true, email: false },
  { type: 'offer.countered', inApp: true, email: false },
  { type: 'deal.step', inApp: true, email: true },
  { type: 'wishlist.listed', inApp: true, email: true },
  { type: 'trade.match', inApp: true, email: true },
  { type: 'savedSearch.match', inApp: true, email: true },
  { type: 'community.comment', inApp: true, email: true },
  { type: 'community.reaction', inApp: true, email: false },
  { type: 'moderation.action', inApp: true, email: false },
  { type: 'moderation.report', inApp: true, email: true },
  { type: 'transaction.confirm', inApp: true, email: true },
  { type: 'transaction.answered', inApp: true, email: false },
  { type: 'review.published', inApp: true, email: true },
  { type: 'review.waiting', inApp: true, email: true },
  { type: 'watch.changed', inApp: true, email: true },
];
/** The settings' types after these changes to the defaults. */
const switchesWith = (changes: Switches) => DEFAULTS.map((d) => ({ ...d, ...changes[d.type] }));
const list = async (who: Member, query = '') => {
  const res = await call(who, 'GET', `/api/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: Array<{
      id: string;
      type: string;
      link: string;
      read: boolean;
      actor: { id: string; displayName: string } | null;
      data: Record<string, unknown>;
    }>;
    nextCursor: string | null;
  };
};
const unread = async (who: Member) =>
  (await call(who, 'GET', '/api/notifications/unread-count')).json().unread as number;
const request = async (from: Member, to: Member) => {
  const res = await call(from, 'POST', '/api/connections', { userId: to.id });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const rowCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from notifications'))[0].n;
const outbox = (to: Member) =>
  t.database.query<{ subject: string; text: string; html: string }>(
    'select subject, text, html from mail_outbox where "to" = $1 order by id',
    [to.email],
  );
const later = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};

describe('signed-out visitors', () => {
  it('get 401 from every notification route, and nothing changes', async () => {
    await request(ada, bruno);
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['POST', '/api/notifications/read-all'],
      ['POST', `/api/notifications/${(await list(bruno)).items[0].id}/read`],
      ['GET', '/api/notifications/settings'],
      ['PATCH', '/api/notifications/settings', { 'friend.request': { email: false } }],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(null, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.message).toBe('Unauthorized. Please login.');
    }
    expect(await unread(bruno)).toBe(1);
    expect((await t.database.query('select 1 from notification_settings')).length).toBe(0);
  });
});

describe('a friend request', () => {
  it('tells the addressee, live, with who sent it and a link to the friends page', async () => {
    const connectionId = await request(ada, bruno);
    const page = await list(bruno);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      type: 'friend.request',
      actor: { id: ada.id, displayName: 'Ada Lovelace', avatarUrl: null },
      actorCount: 1,
      subject: { type: 'connection', id: connectionId },
      link: `/profile/${bruno.id}/friends`,
      read: false,
    });
    expect(page.nextCursor).toBeNull();
    expect(await unread(bruno)).toBe(1);
    expect((await list(ada)).items).toEqual([]);
    expect(pushed).toEqual([
      { userIds: [bruno.id], event: { type: 'notification.new', unread: 1 } },
    ]);
  });

  it('is deleted when the request is cancelled or declined', async () => {
    const cancelled = await request(ada, bruno);
    const declined = await request(carla, bruno);
    expect(await unread(bruno)).toBe(2);
    expect((await call(ada, 'DELETE', `/api/connections/${cancelled}`)).statusCode).toBe(204);
    expect(
      (await call(bruno, 'POST', `/api/connections/${declined}/decline`)).statusCode,
    ).toBeLessThan(300);
    expect(await rowCount()).toBe(0);
    expect(await unread(bruno)).toBe(0);
  });

  it('once accepted, gives way to "accepted" for the requester, linking to the new friend', async () => {
    const id = await request(ada, bruno);
    expect((await call(bruno, 'POST', `/api/connections/${id}/accept`)).statusCode).toBe(200);
    expect((await list(bruno)).items).toEqual([]);
    const [accepted] = (await list(ada)).items;
    expect(accepted).toMatchObject({
      type: 'friend.accepted',
      actor: { id: bruno.id, displayName: 'Bruno Bianchi' },
      link: `/user/${bruno.id}`,
    });
    // Ending the friendship takes the notification with it.
    expect((await call(ada, 'DELETE', `/api/connections/${id}`)).statusCode).toBe(204);
    expect(await rowCount()).toBe(0);
  });
});

describe('visibility', () => {
  it('leaves out what no longer makes sense, from the list and the count', async () => {
    const id = await request(ada, bruno);
    await request(carla, bruno);
    // The row is left behind (as if the request were answered by a path that did not clean up):
    // the list reads the connection's state and no longer shows it.
    await t.database.query(`update connections set status = 'accepted' where id = $1`, [id]);
    expect((await list(bruno)).items.map((i) => i.actor?.id)).toEqual([carla.id]);
    expect(await unread(bruno)).toBe(1);
    await t.database.query('delete from connections');
    expect((await list(bruno)).items).toEqual([]);
    expect(await unread(bruno)).toBe(0);
  });
});

describe('marking read', () => {
  it('one: only its recipient may; another member gets 404 and nothing changes', async () => {
    await request(ada, bruno);
    const [item] = (await list(bruno)).items;
    for (const [who, url] of [
      [ada, `/api/notifications/${item.id}/read`],
      [carla, `/api/notifications/${item.id}/read`],
      [bruno, '/api/notifications/00000000-0000-4000-8000-000000000000/read'],
      [bruno, '/api/notifications/not-a-uuid/read'],
    ] as const) {
      const res = await call(who, 'POST', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Notification not found');
    }
    expect(await unread(bruno)).toBe(1);
    const res = await call(bruno, 'POST', `/api/notifications/${item.id}/read`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unread: 0 });
    expect((await list(bruno)).items[0].read).toBe(true);
    // Again: still read, still 200.
    expect((await call(bruno, 'POST', `/api/notifications/${item.id}/read`)).json()).toEqual({
      unread: 0,
    });
    expect(pushed.at(-1)).toEqual({
      userIds: [bruno.id],
      event: { type: 'notification.read', unread: 0 },
    });
  });

  it('all: every notification of the member, and only the member’s', async () => {
    await request(ada, bruno);
    await request(carla, bruno);
    await request(ada, carla);
    expect(await unread(bruno)).toBe(2);
    const before = await unread(carla);
    const res = await call(bruno, 'POST', '/api/notifications/read-all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unread: 0 });
    expect(await unread(bruno)).toBe(0);
    expect((await list(bruno)).items.every((i) => i.read)).toBe(true);
    expect(await unread(carla)).toBe(before);
  });
});

describe('the list', () => {
  it('pages newest first with nextCursor, and refuses a bad cursor or page size', async () => {
    await request(ada, bruno);
    later(1);
    await request(carla, bruno);
    const first = await list(bruno, '?limit=1');
    expect(first.items.map((i) => i.actor?.id)).toEqual([carla.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(bruno, `?limit=1&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.actor?.id)).toEqual([ada.id]);
    expect(second.nextCursor).toBeNull();

    const bad = await call(bruno, 'GET', '/api/notifications?cursor=nonsense');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      cursor: 'This page of notifications does not exist',
    });
    const tooMany = await call(bruno, 'GET', '/api/notifications?limit=500', undefined, 'it');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.fields).toEqual({
      limit: 'Scegli tra 1 e 50 notifiche per pagina',
    });
  });
});

describe('settings', () => {
  it('lists every type with its defaults, and PATCH changes only what is sent', async () => {
    const initial = (await call(bruno, 'GET', '/api/notifications/settings')).json();
    expect(initial).toEqual({ emailNotifications: true, types: DEFAULTS });
    let res = await setSwitches(bruno, { 'friend.request': { email: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().types).toEqual(switchesWith({ 'friend.request': { email: false } }));
    res = await setSwitches(bruno, {
      'friend.request': { inApp: false },
      'offer.received': { email: true },
    });
    expect(res.json().types).toEqual(
      switchesWith({
        'friend.request': { inApp: false, email: false },
        'offer.received': { email: true },
      }),
    );
    // Another member's switches are their own.
    expect((await call(ada, 'GET', '/api/notifications/settings')).json()).toEqual(initial);
  });

  it('refuses an unknown type or a switch that is not a boolean, changing nothing', async () => {
    const unknown = await setSwitches(bruno, {
      'friend.request': { email: false },
      'no.such': { email: false },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual({ 'no.such': 'Unknown notification type' });
    const notBoolean = await setSwitches(bruno, { 'friend.request': { email: 'no' } });
    expect(notBoolean.statusCode).toBe(400);
    expect((await setSwitches(bruno, {})).statusCode).toBe(400);
    expect((await t.database.query('select 1 from notification_settings')).length).toBe(0);
  });

  it('in-app off: the member is not notified in the app', async () => {
    await setSwitches(bruno, { 'friend.request': { inApp: false, email: false } });
    await request(ada, bruno);
    expect((await list(bruno)).items).toEqual([]);
    expect(await unread(bruno)).toBe(0);
    expect(pushed).toEqual([]);
    expect(await rowCount()).toBe(0);
  });
});

describe('the e-mail digest', () => {
  it('sends at most one an hour, in the member’s language, with each link and the settings link', async () => {
    await t.database.query(`update users set preferred_language = 'it' where id = $1`, [bruno.id]);
    await request(ada, bruno);
    later(1);
    expect(await notifications.runDigests()).toBe(1);
    let mails = await outbox(bruno);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Hai una nuova notifica su Scaffale');
    expect(mails[0].text).toContain('Ciao Bruno Bianchi,');
    expect(mails[0].text).toContain('Ada Lovelace ti ha inviato una richiesta di amicizia');
    expect(mails[0].text).toContain(`http://localhost:3000/profile/${bruno.id}/friends`);
    expect(mails[0].text).toContain(
      `http://localhost:3000/profile/${bruno.id}/settings#notifications`,
    );
    expect(mails[0].html).toContain('<html lang="it">');

    // Within the hour: nothing more, even from a second process running at once.
    const otherProcess = centre(t.database, 'x@scaffale.local').notifications;
    for (const def of notifications.types()) otherProcess.defineType(def);
    await request(carla, bruno);
    later(30);
    expect(await Promise.all([notifications.runDigests(), otherProcess.runDigests()])).toEqual([
      0, 0,
    ]);
    expect(await outbox(bruno)).toHaveLength(1);

    // An hour after the first: the next digest, with only what came since.
    later(31);
    const [a, b] = await Promise.all([notifications.runDigests(), otherProcess.runDigests()]);
    expect(a + b).toBe(1);
    mails = await outbox(bruno);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain('Carla Càrdone ti ha inviato una richiesta di amicizia');
    expect(mails[1].text).not.toContain('Ada Lovelace');
    later(120);
    expect(await notifications.runDigests()).toBe(0);
  });

  it('is in English for an English-speaking member, and counts several notifications', async () => {
    await request(ada, bruno);
    await request(carla, bruno);
    later(1);
    await notifications.runDigests();
    const [mail] = await outbox(bruno);
    expect(mail.subject).toBe('You have 2 new notifications on Scaffale');
    expect(mail.text).toContain('Ada Lovelace sent you a friend request');
    expect(mail.text).toContain('Carla Càrdone sent you a friend request');
  });

  it('respects the type’s e-mail switch and the profile’s email_notifications', async () => {
    await setSwitches(bruno, { 'friend.request': { email: false } });
    await request(ada, bruno);
    await t.database.query('update users set email_notifications = false where id = $1', [
      carla.id,
    ]);
    await request(ada, carla);
    later(1);
    expect(await notifications.runDigests()).toBe(0);
    expect(await outbox(bruno)).toEqual([]);
    expect(await outbox(carla)).toEqual([]);
    // The in-app notifications are there all the same.
    expect(await unread(bruno)).toBe(1);
    expect(await unread(carla)).toBe(1);

    // Switching e-mail off after the notification came: not sent either.
    await t.database.query('delete from connections where addressee_id = $1', [carla.id]);
    await request(carla, ada);
    await setSwitches(ada, { 'friend.request': { email: false } });
    later(1);
    expect(await notifications.runDigests()).toBe(0);
    expect(await outbox(ada)).toEqual([]);
  });

  it('leaves out what the member may no longer see, and sends nothing when that is all', async () => {
    const id = await request(ada, bruno);
    await call(ada, 'DELETE', `/api/connections/${id}`);
    later(1);
    expect(await notifications.runDigests()).toBe(0);
    expect(await outbox(bruno)).toEqual([]);
    // No e-mail was sent, so the hour is not used up.
    await request(carla, bruno);
    later(1);
    expect(await notifications.runDigests()).toBe(1);
  });
});

describe('the OpenAPI document', () => {
  it('lists every notification route with its errors', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const paths = doc.paths as Record<string, Record<string, { responses: object }>>;
    const responses = (path: string, method: string) => Object.keys(paths[path][method].responses);
    expect(responses('/api/notifications', 'get')).toEqual(['200', '400', '401']);
    expect(responses('/api/notifications/unread-count', 'get')).toEqual(['200', '401']);
    expect(responses('/api/notifications/{id}/read', 'post')).toEqual(
      expect.arrayContaining(['200', '401', '404', '429']),
    );
    expect(responses('/api/notifications/read-all', 'post')).toEqual(
      expect.arrayContaining(['200', '401', '429']),
    );
    expect(responses('/api/notifications/settings', 'get')).toEqual(['200', '401']);
    expect(responses('/api/notifications/settings', 'patch')).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    );
  });
});
