import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../../test/app';
import { gattopardo } from '../../test/listings';
import { loadConfig } from '../../config';
import { endHolidays } from './holiday';
import { befriend, callAs, createMember, type Member } from '../../test/members';

/**
 * Holiday mode (docs/watching.md, decision 0069): the rules of the date, the listings leaving the
 * library, the shelves and their totals and coming back on the date by the app's (injected)
 * clock, the automatic reply once per conversation and holiday, and the e2e test clock's guard.
 */
const DAY = 24 * 60 * 60 * 1000;
let clock = new Date('2026-07-01T10:00:00Z').getTime();
let t: TestApp;
let seller: Member;
let buyer: Member;
const call = callAs(() => t);
/** The library keeps totals 10 s and anonymous answers 2 s by the app's clock: step past them. */
const later = (ms = 11_000) => {
  clock += ms;
};

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  [seller, buyer] = await Promise.all([
    createMember(t, { username: 'seller_h', displayName: 'Sara Holiday' }),
    createMember(t, { username: 'buyer_h', displayName: 'Bruno Buyer' }),
  ]);
}, 60_000);

const put = (who: Member | null, body: object, lang = 'en') =>
  call(who, 'PUT', '/api/me/holiday', body, lang);
async function list(title = 'Il Gattopardo'): Promise<string> {
  const res = await call(seller, 'POST', '/api/listings', { ...gattopardo, title });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}
/** What another member finds: the library's ids and total, and the shelves' ids. */
async function library(who: Member | null = buyer) {
  later();
  const all = (await call(who, 'GET', '/api/listings')).json();
  const words = (await call(who, 'GET', '/api/listings?q=gattopardo')).json();
  const shelves = (await call(who, 'GET', '/api/shelves')).json();
  const shelved = JSON.stringify(shelves);
  return {
    ids: all.items.map((i: { id: string }) => i.id) as string[],
    total: all.total,
    wordsTotal: words.total,
    shelved,
  };
}

describe('the date', () => {
  it('asks a visitor to sign in', async () => {
    expect((await put(null, { awayUntil: '2026-07-10' })).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/me/holiday')).statusCode).toBe(401);
    expect((await call(null, 'DELETE', '/api/me/holiday')).statusCode).toBe(401);
  });

  it('is tomorrow to 90 days ahead, written YYYY-MM-DD; errors in the member’s language', async () => {
    const cases: Array<[object, string, string]> = [
      [
        { awayUntil: '2026-07-01' },
        'The last day away must be tomorrow or later.',
        "L'ultimo giorno di assenza deve essere domani o più avanti.",
      ],
      [
        { awayUntil: '2025-12-31' },
        'The last day away must be tomorrow or later.',
        "L'ultimo giorno di assenza deve essere domani o più avanti.",
      ],
      [
        { awayUntil: '2026-09-30' },
        'A holiday lasts at most 90 days: choose an earlier day.',
        'Una vacanza dura al massimo 90 giorni: scegli un giorno prima.',
      ],
      [
        { awayUntil: '2026-02-30' },
        'Write the date as YYYY-MM-DD.',
        'Scrivi la data come AAAA-MM-GG.',
      ],
      [
        { awayUntil: '10/07/2026' },
        'Write the date as YYYY-MM-DD.',
        'Scrivi la data come AAAA-MM-GG.',
      ],
      [{}, 'Choose the last day you are away.', "Scegli l'ultimo giorno di assenza."],
      [
        { awayUntil: '2026-07-10', autoReply: 'x'.repeat(501) },
        'The automatic reply can be at most 500 characters.',
        'La risposta automatica può avere al massimo 500 caratteri.',
      ],
    ];
    for (const [body, en, it] of cases) {
      const res = await put(seller, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.values(res.json().error.fields ?? {})).toContain(en);
      const itRes = await put(seller, body, 'it');
      expect(Object.values(itRes.json().error.fields ?? {})).toContain(it);
    }
    // NUL bytes and huge values are bad input, never a 500.
    expect((await put(seller, { awayUntil: '2026-07-1\u00000' })).statusCode).toBe(400);
    expect((await put(seller, { awayUntil: '2026-07-10', autoReply: 'a\u0000b' })).statusCode).toBe(
      400,
    );
    expect((await put(seller, { awayUntil: 'x'.repeat(100_000) })).statusCode).toBeLessThan(500);
    expect((await call(seller, 'GET', '/api/me/holiday')).json()).toEqual({ holiday: null });
    // 90 days ahead is the last day allowed.
    const ok = await put(seller, { awayUntil: '2026-09-29' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call(seller, 'DELETE', '/api/me/holiday')).json()).toEqual({ holiday: null });
  });
});

describe('away and back', () => {
  it('hides the listings from the library, its totals and the shelves until the date, by itself', async () => {
    const id = await list();
    const before = await library();
    expect(before.ids).toContain(id);
    expect(before.shelved).toContain(id);

    const res = await put(seller, { awayUntil: '2026-07-05' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      holiday: { awayUntil: '2026-07-05', backAt: '2026-07-06T00:00:00.000Z', autoReply: null },
    });
    const away = await library();
    expect(away.ids).not.toContain(id);
    expect(away.total).toBe(before.total - 1);
    expect(away.wordsTotal).toBe(before.wordsTotal - 1);
    expect(away.shelved).not.toContain(id);
    // A visitor too; the book page still shows it, and the profile says when the seller is back.
    expect((await library(null)).ids).not.toContain(id);
    expect((await call(buyer, 'GET', `/api/listings/${id}`)).statusCode).toBe(200);
    expect((await call(null, 'GET', `/api/users/${seller.id}/holiday`)).json()).toEqual({
      backAt: '2026-07-06T00:00:00.000Z',
    });
    expect((await call(null, 'GET', `/api/users/${buyer.id}/holiday`)).json()).toEqual({
      backAt: null,
    });
    expect((await call(null, 'GET', '/api/users/nobody/holiday')).json()).toEqual({ backAt: null });
    // Another member cannot end it (there is no route taking someone else's id).
    await call(buyer, 'DELETE', '/api/me/holiday');
    expect((await library()).ids).not.toContain(id);

    // The day passes: the job (the timer, here called as it calls it) brings everything back.
    clock = new Date('2026-07-05T23:59:00Z').getTime();
    expect(await endHolidays(t.database, new Date(clock))).toEqual([]);
    clock = new Date('2026-07-06T00:00:01Z').getTime();
    expect((await call(seller, 'GET', '/api/me/holiday')).json()).toEqual({ holiday: null });
    expect(await endHolidays(t.database, new Date(clock))).toEqual([seller.id]);
    const back = await library();
    expect(back.ids).toContain(id);
    expect(back.total).toBe(before.total);
    expect(back.wordsTotal).toBe(before.wordsTotal);
    expect(back.shelved).toContain(id);
    expect((await call(null, 'GET', `/api/users/${seller.id}/holiday`)).json()).toEqual({
      backAt: null,
    });
  });

  it('ends once, whichever of two processes runs the job', async () => {
    const now = new Date(clock);
    const day = new Date(clock + 3 * DAY).toISOString().slice(0, 10);
    expect((await put(seller, { awayUntil: day })).statusCode).toBe(200);
    expect((await put(buyer, { awayUntil: day })).statusCode).toBe(200);
    const after = new Date(now.getTime() + 5 * DAY);
    const [a, b] = await Promise.all([
      endHolidays(t.database, after),
      endHolidays(t.database, after),
    ]);
    expect([...a, ...b].sort()).toEqual([seller.id, buyer.id].sort());
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from member_holidays',
    );
    expect(n).toBe(0);
  });

  it('the listing counts stay exact through a suspension during a holiday', async () => {
    const id = await list('Il Gattopardo bis');
    const total = async () => (await library()).total;
    const start = await total();
    const day = new Date(clock + 3 * DAY).toISOString().slice(0, 10);
    await put(seller, { awayUntil: day });
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [
      seller.id,
    ]);
    await t.database.query(`update users set account_status = 'active' where id = $1`, [seller.id]);
    expect(await total()).toBe(start - 2);
    await call(seller, 'DELETE', '/api/me/holiday');
    expect(await total()).toBe(start);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select coalesce(sum(n), 0)::int as n from listing_counts where price_floor = -2 and status = 'available'`,
    );
    const [{ real }] = await t.database.query<{ real: number }>(
      `select count(*)::int as real from book_listings l join users u on u.id = l.user_id
       where l.status = 'available' and l.hidden_at is null and u.account_status = 'active'`,
    );
    expect(n).toBe(real);
    await call(seller, 'DELETE', `/api/listings/${id}`);
  });
});

describe('the automatic reply', () => {
  it('answers a new conversation once per holiday, in the seller’s words or the default', async () => {
    const id = await list('Il Gattopardo ter');
    const day = new Date(clock + 3 * DAY).toISOString().slice(0, 10);
    await put(seller, { awayUntil: day, autoReply: 'Torno presto!' });
    const contact = () =>
      call(buyer, 'POST', '/api/chats/contact', {
        listingId: id,
        content: 'È ancora disponibile?',
      });
    const first = await contact();
    expect(first.statusCode, first.body).toBe(201);
    const roomId = first.json().roomId;
    expect((await contact()).statusCode).toBe(201);
    const replies = async () => {
      const page = (await call(buyer, 'GET', `/api/chats/rooms/${roomId}/messages`)).json();
      return page.items.filter((m: { type: string }) => m.type === 'system') as Array<{
        content: string;
        senderId: string;
      }>;
    };
    let system = await replies();
    expect(system).toHaveLength(1);
    expect(system[0]).toMatchObject({
      content: `holiday|${day}|Torno presto!`,
      senderId: seller.id,
    });

    // A new holiday answers again, with the default words (translated by each reader's app).
    await call(seller, 'DELETE', '/api/me/holiday');
    expect((await contact()).statusCode).toBe(201);
    expect(await replies()).toHaveLength(1);
    await put(seller, { awayUntil: day });
    await contact();
    system = await replies();
    expect(system).toHaveLength(2);
    expect(system[1].content).toBe(`holiday|${day}|`);
    await call(seller, 'DELETE', '/api/me/holiday');
  });
});

describe('the automatic reply, however the conversation starts', () => {
  const systemIn = async (who: Member, roomId: string) => {
    const page = (await call(who, 'GET', `/api/chats/rooms/${roomId}/messages`)).json();
    return (page.items as Array<{ type: string; content: string; senderId: string }>).filter(
      (m) => m.type === 'system',
    );
  };

  it('answers a direct room the buyer opens, once per room and holiday, whatever the route', async () => {
    const reader = await createMember(t, { displayName: 'Rita Reader' });
    const day = new Date(clock + 3 * DAY).toISOString().slice(0, 10);
    await put(seller, { awayUntil: day, autoReply: 'Rientro presto' });
    // Two opens at once (two tabs, a retry): one room, one reply.
    const opened = await Promise.all(
      [1, 2].map(() => call(reader, 'POST', '/api/chats/direct', { userId: seller.id })),
    );
    expect(opened.map((r) => r.statusCode).sort()).toEqual([200, 201].sort());
    const roomId = opened[0].json().room.id;
    expect(opened[1].json().room.id).toBe(roomId);
    expect(await systemIn(reader, roomId)).toEqual([
      expect.objectContaining({ content: `holiday|${day}|Rientro presto`, senderId: seller.id }),
    ]);
    // Opened again, then contacted about a listing in the same room: still the one reply.
    expect(
      (await call(reader, 'POST', '/api/chats/direct', { userId: seller.id })).statusCode,
    ).toBe(200);
    const id = await list('Il Gattopardo quater');
    const contact = await call(reader, 'POST', '/api/chats/contact', {
      listingId: id,
      content: 'Ciao!',
    });
    expect(contact.json().roomId).toBe(roomId);
    expect(await systemIn(reader, roomId)).toHaveLength(1);
    // The seller sees it in their conversation too.
    expect(await systemIn(seller, roomId)).toHaveLength(1);
    await call(seller, 'DELETE', '/api/me/holiday');
    await call(seller, 'DELETE', `/api/listings/${id}`);
  });

  it('answers a room opened before the holiday when it is opened again during it', async () => {
    const reader = await createMember(t, { displayName: 'Remo Reader' });
    const first = await call(reader, 'POST', '/api/chats/direct', { userId: seller.id });
    const roomId = first.json().room.id;
    expect(await systemIn(reader, roomId)).toEqual([]);
    const day = new Date(clock + 2 * DAY).toISOString().slice(0, 10);
    await put(seller, { awayUntil: day });
    await call(reader, 'POST', '/api/chats/direct', { userId: seller.id });
    expect((await systemIn(reader, roomId)).map((m) => m.content)).toEqual([`holiday|${day}|`]);
    await call(seller, 'DELETE', '/api/me/holiday');
  });

  it('answers the first message typed into a room opened before the holiday, once', async () => {
    const reader = await createMember(t, { displayName: 'Rocco Reader' });
    const roomId = (await call(reader, 'POST', '/api/chats/direct', { userId: seller.id })).json()
      .room.id;
    const friend = await createMember(t, { displayName: 'Fede Friend' });
    await befriend(t, reader, seller, friend);
    const group = await call(reader, 'POST', '/api/chats/rooms', {
      name: 'Lettori',
      participantIds: [seller.id, friend.id],
    });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json().room.id;
    const day = new Date(clock + 2 * DAY).toISOString().slice(0, 10);
    await put(seller, { awayUntil: day, autoReply: 'Torno lunedì' });
    const send = (who: Member, room: string, content: string) =>
      call(who, 'POST', `/api/chats/rooms/${room}/messages`, { content });
    // The away member's own message answers nobody; then the reader's first message is answered.
    expect((await send(seller, roomId, 'Scusa, sono via')).statusCode).toBe(201);
    expect((await send(reader, roomId, 'Ciao, ci sei?')).statusCode).toBe(201);
    await expect
      .poll(async () => (await systemIn(reader, roomId)).map((m) => m.content), { timeout: 5_000 })
      .toEqual([`holiday|${day}|Torno lunedì`]);
    const last = (await call(reader, 'GET', `/api/chats/rooms/${roomId}/messages`)).json().items;
    expect(last.at(-1)).toMatchObject({ type: 'system', senderId: seller.id });
    // The next messages, and two at once, get no second reply.
    await Promise.all([send(reader, roomId, 'Ok!'), send(reader, roomId, 'A presto')]);
    // Groups are not conversations with a seller: no reply.
    expect((await send(reader, groupId, 'Ciao a tutti')).statusCode).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(await systemIn(reader, roomId)).toHaveLength(1);
    expect(await systemIn(reader, groupId)).toEqual([]);
    await call(seller, 'DELETE', '/api/me/holiday');
  });

  it('does not answer for a member who is not away, nor for a suspended one', async () => {
    const reader = await createMember(t, { displayName: 'Rina Reader' });
    const day = new Date(clock + 2 * DAY).toISOString().slice(0, 10);
    // The member on holiday opening a room answers nobody: the other one is not away.
    await put(seller, { awayUntil: day });
    const own = await call(seller, 'POST', '/api/chats/direct', { userId: reader.id });
    expect(await systemIn(seller, own.json().room.id)).toEqual([]);
    await call(seller, 'DELETE', '/api/me/holiday');

    const away = await createMember(t, { displayName: 'Sospeso Seller' });
    await put(away, { awayUntil: day });
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [
      away.id,
    ]);
    const res = await call(reader, 'POST', '/api/chats/direct', { userId: away.id });
    if (res.statusCode < 300) expect(await systemIn(reader, res.json().room.id)).toEqual([]);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from holiday_replies r join member_holidays h on h.id = r.holiday_id
       where h.user_id = $1`,
      [away.id],
    );
    expect(n).toBe(0);
  });
});

describe('the e2e test clock', () => {
  it('is refused in production', () => {
    expect(() =>
      loadConfig({ TEST_CLOCK: 'true', NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) }),
    ).toThrow(/TEST_CLOCK/);
    expect(loadConfig({ TEST_CLOCK: 'true', AUTH_SECRET: 'x'.repeat(40) }).testClock).toBe(true);
    expect(loadConfig({ AUTH_SECRET: 'x'.repeat(40) }).testClock).toBe(false);
  });

  it('does not exist without the flag, and moves the clock with it (loopback only)', async () => {
    expect((await call(null, 'POST', '/api/dev/clock', { offsetMs: DAY })).statusCode).toBe(404);
    const withClock = await createTestApp({ config: { ...testConfig(), testClock: true } });
    const move = (remoteAddress = '127.0.0.1') =>
      withClock.inject({
        method: 'POST',
        url: '/api/dev/clock',
        payload: { offsetMs: 2 * DAY },
        remoteAddress,
      });
    expect((await move('10.1.2.3')).statusCode).toBe(404);
    const res = await move();
    expect(res.statusCode, res.body).toBe(200);
    expect(new Date(res.json().now).getTime() - Date.now()).toBeGreaterThan(2 * DAY - 60_000);
    const back = await withClock.inject({
      method: 'POST',
      url: '/api/dev/clock',
      payload: { offsetMs: 0 },
      remoteAddress: '127.0.0.1',
    });
    expect(Math.abs(new Date(back.json().now).getTime() - Date.now())).toBeLessThan(60_000);
    const before = await withClock.inject({
      method: 'POST',
      url: '/api/dev/clock',
      payload: { offsetMs: -DAY },
      remoteAddress: '127.0.0.1',
    });
    expect(before.statusCode).toBe(400);
  });
});
