import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { wishlistItemSchema, wishlistPageSchema } from '@shared/schemas/wishlist';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, expectRefusal, requester, type Member } from '../../test/members';
import { wishlistAlertsSettled } from './alerts';

/**
 * Wishing a work (issue 35): a member adds a book in every edition and language from its page;
 * a new listing of any copy of it alerts them through the wishlist's one alert (bell, live event,
 * digest), by the one audience rule; the wishlist shows its copies and the cheapest.
 */
let t: TestApp;
let ada: Member;
let bruno: Member;
let carla: Member;
let work: string;
let clock = Date.now();
const req = (...args: Parameters<ReturnType<typeof requester>>) => requester(t)(...args);
const missing = '00000000-0000-4000-8000-000000000000';

const guerra = {
  mode: 'full',
  title: 'Guerra e pace',
  author: 'Lev Tolstoj',
  genre: 'fiction',
  condition: 'good',
  listingType: 'sell',
  price: 10,
  shippingCost: 3,
  currency: 'EUR',
  description: 'Edizione Einaudi, due volumi.',
  language: 'Italiano',
};
/** The same work in English: another book of the catalogue, found by its English title. */
const warAndPeace = { ...guerra, title: 'War and Peace', language: 'English', price: 6 };

async function list(who: Member, body: object) {
  const res = await req('POST', '/api/listings', who, body);
  expect(res.statusCode, res.body).toBe(201);
  await wishlistAlertsSettled();
  return res.json().id as string;
}
const addWork = (who: Member | undefined, workId: string, lang = 'en') =>
  req('POST', '/api/me/wishlist/items', who, { workId }, lang);
const wishlistOf = async (who: Member, lang = 'en') => {
  const res = await req('GET', `/api/users/${who.id}/wishlist`, who, undefined, lang);
  expect(res.statusCode, res.body).toBe(200);
  return wishlistPageSchema.parse(res.json());
};
/**
 * The 'wishlist.listed' bell rows of a member: the listings they were told of, in id order (the
 * test clock stands still: the rows share their time).
 */
const told = async (who: Member) => {
  await wishlistAlertsSettled();
  const rows = await t.database.query<{ subject_id: string }>(
    `select subject_id::text from notifications
     where recipient_id = $1 and type = 'wishlist.listed' order by subject_id`,
    [who.id],
  );
  return rows.map((r) => r.subject_id);
};
const ids = (...list: string[]) => [...list].sort();

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  [ada, bruno, carla] = await Promise.all([
    createMember(t, { username: 'ada_works', displayName: 'Ada Works' }),
    createMember(t, { username: 'bruno_works', displayName: 'Bruno Works' }),
    createMember(t, { username: 'carla_works', displayName: 'Carla Works' }),
  ]);
  // The work, with its Italian and English titles, as an admin or the demo data gives them.
  [{ id: work }] = await t.database.query<{ id: string }>(
    `insert into works (author, first_year) values ('Lev Tolstoj', 1869) returning id`,
  );
  await t.database.query(
    `insert into work_titles (work_id, language, title)
     values ($1, 'it', 'Guerra e pace'), ($1, 'en', 'War and Peace')`,
    [work],
  );
});

beforeEach(async () => {
  await wishlistAlertsSettled();
  await t.database.query('delete from wishlist_items');
  await t.database.query('delete from notifications');
  await t.database.query('delete from book_listings');
});

describe('adding a work', () => {
  it('adds the work (not a copy), titled in the reader’s language, once', async () => {
    const res = await addWork(ada, work, 'it');
    expect(res.statusCode, res.body).toBe(201);
    const item = wishlistItemSchema.parse(res.json());
    expect(item).toMatchObject({
      title: 'Guerra e pace',
      author: 'Lev Tolstoj',
      book: null,
      work: { id: work, title: 'Guerra e pace', author: 'Lev Tolstoj', from: null },
      availableListings: 0,
    });
    const again = await addWork(ada, work);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'This book, in every edition and language, is already on your wishlist.',
    );
    const member = await req('GET', `/api/me/wishlist/works/${work}`, ada);
    expect(member.json()).toEqual({ wished: true, itemId: item.id });
    expect((await req('GET', `/api/me/wishlist/works/${work}`, bruno)).json()).toEqual({
      wished: false,
      itemId: null,
    });
    // The English reader's page names it in English.
    expect((await wishlistOf(ada)).items.map((i) => i.title)).toEqual(['War and Peace']);
    expect((await wishlistOf(ada, 'it')).items.map((i) => i.title)).toEqual(['Guerra e pace']);
    // A work is no book: the hearts of listing cards do not see it.
    expect((await req('GET', '/api/me/wishlist/book-ids', ada)).json()).toEqual({ bookIds: [] });
  });

  it('one item when the same work is added many times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => addWork(bruno, work)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await wishlistOf(bruno)).total).toBe(1);
  });

  it('refuses visitors (401), unknown works (404) and bad ids (400), adding nothing', async () => {
    expect((await addWork(undefined, work)).statusCode).toBe(401);
    expect((await req('GET', `/api/me/wishlist/works/${work}`)).statusCode).toBe(401);
    await expectRefusal(t, ['POST', '/api/me/wishlist/items', ada, { workId: missing }], {
      status: 404,
      en: 'This book does not exist.',
      it: 'Questo libro non esiste.',
    });
    for (const body of [
      { workId: 'not-a-uuid' },
      { workId: `${work}\u0000` },
      { workId: 'x'.repeat(10_000) },
      { workId: work, bookId: work },
      {},
    ]) {
      const res = await req('POST', '/api/me/wishlist/items', ada, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    // A catalogue book's id is no work's (and a work's id is no book's).
    const bookId = (
      await t.database.query<{ id: string }>(
        `insert into books (title, author) values ('Anna Karenina', 'Lev Tolstoj') returning id`,
      )
    )[0].id;
    expect((await addWork(ada, bookId)).statusCode).toBe(404);
    expect((await req('POST', '/api/me/wishlist/items', ada, { bookId: work })).statusCode).toBe(
      404,
    );
    expect((await wishlistOf(ada)).total).toBe(0);
  });

  it('is removed by its owner only: another member’s removal is 404 and changes nothing', async () => {
    await addWork(ada, work);
    const url = `/api/me/wishlist/works/${work}`;
    expect((await req('DELETE', url)).statusCode).toBe(401);
    await expectRefusal(t, ['DELETE', url, bruno, undefined], {
      status: 404,
      en: 'This book is not on your wishlist.',
      it: 'Questo libro non è nella tua lista dei desideri.',
    });
    const [item] = (await wishlistOf(ada)).items;
    expect((await req('DELETE', `/api/me/wishlist/items/${item.id}`, bruno)).statusCode).toBe(404);
    expect((await wishlistOf(ada)).total).toBe(1);
    expect((await req('DELETE', url, ada)).statusCode).toBe(204);
    expect((await wishlistOf(ada)).total).toBe(0);
    expect((await req('DELETE', url, ada)).statusCode).toBe(404);
    expect((await req('DELETE', '/api/me/wishlist/works/nope', ada)).statusCode).toBe(404);
  });
});

describe('the wishlist page', () => {
  it('counts the work’s copies in every language, by others, with the cheapest delivered', async () => {
    await addWork(ada, work);
    const own = await list(ada, { ...guerra, price: 1, shippingCost: 0 });
    const italian = await list(bruno, guerra);
    const english = await list(carla, warAndPeace);
    const [item] = (await wishlistOf(ada)).items;
    // Ada's own copy is not one she is waiting for.
    expect(item).toMatchObject({
      availableListings: 2,
      newestListingId: english,
      work: { id: work, from: 9, currency: 'EUR' },
    });
    // Sold, blocked, on holiday: the count follows the work page's rule.
    await req('POST', `/api/listings/${english}/status`, carla, { status: 'sold' });
    expect((await wishlistOf(ada)).items[0]).toMatchObject({
      availableListings: 1,
      newestListingId: italian,
      work: { from: 13 },
    });
    expect((await req('PUT', `/api/blocks/${bruno.id}`, ada)).statusCode).toBeLessThan(300);
    expect((await wishlistOf(ada)).items[0]).toMatchObject({
      availableListings: 0,
      work: { from: null, currency: null },
    });
    await req('DELETE', `/api/blocks/${bruno.id}`, ada);
    const away = new Date(clock + 3 * 86_400_000).toISOString().slice(0, 10);
    await req('PUT', '/api/me/holiday', bruno, { awayUntil: away, autoReply: null });
    expect((await wishlistOf(ada)).items[0].availableListings).toBe(0);
    await req('DELETE', '/api/me/holiday', bruno);
    clock += 1000;
    expect((await wishlistOf(ada)).items[0].availableListings).toBe(1);
    expect(own).toBeTruthy();
  });

  it('keeps the title and ISBN wishes working beside the work wishes', async () => {
    const book = await t.database.query<{ id: string }>(
      `insert into books (title, author) values ('Guerra e pace', 'Lev Tolstoj') returning id`,
    );
    const added = await req('POST', '/api/me/wishlist/items', carla, { bookId: book[0].id });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ book: { id: book[0].id }, work: null });
    await addWork(carla, work);
    const italian = await list(bruno, guerra);
    const page = await wishlistOf(carla);
    expect(page.items.map((i) => [i.work ? 'work' : 'book', i.availableListings])).toEqual([
      ['work', 1],
      ['book', 1],
    ]);
    // One alert for the listing, though two of her wishes name it.
    expect(await told(carla)).toEqual([italian]);
  });
});

describe('alerts for a wished work', () => {
  it('a new copy of any edition, in any language, alerts the wisher once, never the seller', async () => {
    await addWork(ada, work);
    await addWork(bruno, work);
    const english = await list(bruno, warAndPeace);
    const italian = await list(carla, guerra);
    expect(await told(ada)).toEqual(ids(english, italian));
    expect(await told(bruno)).toEqual([italian]);
    const [row] = await t.database.query<{ actor_id: string; data: object }>(
      `select actor_id, data from notifications where recipient_id = $1 and subject_id = $2`,
      [ada.id, english],
    );
    expect(row).toEqual({ actor_id: bruno.id, data: { title: 'War and Peace' } });
    // Another book of another work, by the same author, says nothing.
    await list(carla, { ...guerra, title: 'Anna Karenina' });
    expect(await told(ada)).toEqual(ids(english, italian));
  });

  it('follows the audience rule: blocks either way, a suspended wisher, a seller on holiday', async () => {
    await addWork(ada, work);
    expect((await req('PUT', `/api/blocks/${bruno.id}`, ada)).statusCode).toBeLessThan(300);
    await list(bruno, guerra);
    expect(await told(ada)).toEqual([]);
    await req('DELETE', `/api/blocks/${bruno.id}`, ada);
    expect((await req('PUT', `/api/blocks/${ada.id}`, bruno)).statusCode).toBeLessThan(300);
    await list(bruno, warAndPeace);
    expect(await told(ada)).toEqual([]);
    await req('DELETE', `/api/blocks/${ada.id}`, bruno);
    // A seller on holiday: told when they are back.
    const away = new Date(clock + 3 * 86_400_000).toISOString().slice(0, 10);
    await req('PUT', '/api/me/holiday', carla, { awayUntil: away, autoReply: null });
    const whileAway = await list(carla, guerra);
    expect(await told(ada)).toEqual([]);
    await req('DELETE', '/api/me/holiday', carla);
    clock += 1000;
    // The return is announced after the answer (the listing-changes hook).
    await expect.poll(() => told(ada)).toEqual([whileAway]);
    // A suspended wisher hears nothing.
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [ada.id]);
    try {
      await list(carla, warAndPeace);
      expect(await told(ada)).toEqual([whileAway]);
    } finally {
      await t.database.query(`update users set account_status = 'active' where id = $1`, [ada.id]);
    }
  });

  it('a copy an admin moves into the work is the work’s from then on', async () => {
    const other = await list(bruno, { ...guerra, title: 'Guerra e pace (Oscar)' });
    const [{ book_id: bookId }] = await t.database.query<{ book_id: string }>(
      'select book_id from book_listings where id = $1',
      [other],
    );
    await addWork(ada, work);
    expect((await wishlistOf(ada)).items[0].availableListings).toBe(0);
    await t.database.query('update books set work_id = $1 where id = $2', [work, bookId]);
    expect((await wishlistOf(ada)).items[0].availableListings).toBe(1);
  });
});

describe('the API document', () => {
  it('has the work wish routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    const path = doc.paths['/api/me/wishlist/works/{workId}'];
    expect(Object.keys(path.get.responses).sort()).toEqual(['200', '400', '401']);
    // 403: the terms not accepted yet (platform/auth.ts adds it to every change).
    expect(Object.keys(path.delete.responses).sort()).toEqual(['204', '400', '401', '403', '404']);
  });
});
