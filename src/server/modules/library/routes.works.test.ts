import { beforeAll, describe, expect, it } from 'vitest';
import { listingPageSchema, relatedListingsSchema } from '@shared/marketplace';
import { workPageSchema, workSchema } from '@shared/works';
import { grantAdmin } from '../moderation';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, expectRefusal, requester, type Member } from '../../test/members';
import { gattopardo } from '../../test/listings';

let t: TestApp;
let ana: Member;
let ben: Member;
let cleo: Member;
let viewer: Member;
let admin: Member;
/** The app's clock: a day ahead after each holiday, for the shelves' and totals' caches. */
let clock = Date.now();
const req = (...args: Parameters<ReturnType<typeof requester>>) => requester(t)(...args);

const leopard = {
  ...gattopardo,
  title: 'The Leopard',
  isbn: '9780099513360',
  language: 'English',
  price: 8,
  shippingCost: 2,
  location: 'London',
  description: 'Vintage paperback, read once.',
};

async function list(who: Member, body: object) {
  const res = await req('POST', '/api/listings', who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; bookId: string };
}

async function workOf(listingId: string): Promise<string> {
  const [row] = await t.database.query<{ work_id: string }>(
    'select work_id from book_listings where id = $1',
    [listingId],
  );
  return row.work_id;
}

async function page(workId: string, who?: Member, lang = 'en') {
  const res = await req('GET', `/api/works/${workId}`, who, undefined, lang);
  expect(res.statusCode, res.body).toBe(200);
  return workPageSchema.parse(res.json());
}

/** The copies a reader sees: the listing ids, in the page's order. */
const copies = async (workId: string, who?: Member) =>
  (await page(workId, who)).copies.map((c) => c.id);

const searchIds = async (q: string, who?: Member) => {
  clock += 11_000;
  const res = await req('GET', `/api/listings?q=${encodeURIComponent(q)}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return listingPageSchema.parse(res.json());
};

let italian: { id: string; bookId: string };
let english: { id: string; bookId: string };
let trade: { id: string; bookId: string };
let work: string;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  ana = await createMember(t, { username: 'ana', displayName: 'Ana Rossi' });
  ben = await createMember(t, { username: 'ben', displayName: 'Ben Hall' });
  cleo = await createMember(t, { username: 'cleo', displayName: 'Cleo Verdi' });
  viewer = await createMember(t, { username: 'vera', displayName: 'Vera Viewer' });
  admin = await createMember(t, { displayName: 'Ada Admin' });
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
  italian = await list(ana, { ...gattopardo, language: 'Italiano' });
  english = await list(ben, leopard);
  trade = await list(cleo, {
    ...gattopardo,
    isbn: undefined,
    listingType: 'trade',
    price: undefined,
    shippingCost: undefined,
    language: 'Italiano',
  });
  work = await workOf(italian.id);
});

describe('works from the catalogue', () => {
  it('gives a listing made from the catalogue its book’s work, one per title and author', async () => {
    expect(work).toBeTruthy();
    // Another edition (no ISBN, the same title and author) joins the same work.
    expect(await workOf(trade.id)).toBe(work);
    // Another language's title is another work until an admin joins them.
    expect(await workOf(english.id)).not.toBe(work);
    const { work: w } = await page(work);
    expect(w).toMatchObject({
      title: 'Il Gattopardo',
      titles: [{ language: 'it', title: 'Il Gattopardo' }],
      author: 'Giuseppe Tomasi di Lampedusa',
    });
    // The card names it, with the copy's language.
    const found = await searchIds('gattopardo');
    const card = found.items.find((i) => i.id === italian.id);
    expect(card).toMatchObject({ workId: work, language: 'Italiano' });
    expect(found.workCopies?.[work]).toBe(2);
  });
});

describe('admins correct works', () => {
  it('refuses visitors (401) and members who are not admins (404), changing nothing', async () => {
    const patch = { titles: { en: 'The Leopard' } };
    expect((await req('PATCH', `/api/admin/works/${work}`, undefined, patch)).statusCode).toBe(401);
    await expectRefusal(t, ['PATCH', `/api/admin/works/${work}`, ana, patch], {
      status: 404,
      en: 'Not found',
      it: 'Non trovato',
    });
    const move = { workId: work };
    expect(
      (await req('PUT', `/api/admin/books/${english.bookId}/work`, undefined, move)).statusCode,
    ).toBe(401);
    expect(
      (await req('PUT', `/api/admin/books/${english.bookId}/work`, ben, move)).statusCode,
    ).toBe(404);
    expect((await page(work)).work.titles).toHaveLength(1);
    expect(await workOf(english.id)).not.toBe(work);
  });

  it('refuse bad corrections with a message, and a missing work or book with 404', async () => {
    const bad = async (body: unknown, field: string, en: string) => {
      const res = await req('PATCH', `/api/admin/works/${work}`, admin, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.fields[field]).toBe(en);
    };
    await bad({ titles: { it: null } }, 'titles', 'A work needs at least one title');
    await bad(
      { titles: { english: 'The Leopard' } },
      'titles',
      'Use a language code such as it or en',
    );
    await bad({ titles: { en: 'x'.repeat(301) } }, 'titles.en', 'This text is too long');
    await bad({ firstYear: 99999 }, 'firstYear', 'Enter a year such as 1958');
    await bad({ author: ' ' }, 'author', 'The author is required');
    expect((await page(work)).work.titles).toHaveLength(1);
    const missing = '00000000-0000-4000-8000-000000000000';
    const gone = await req(
      'PATCH',
      `/api/admin/works/${missing}`,
      admin,
      { firstYear: 1958 },
      'it',
    );
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('Quest’opera non esiste');
    // A book's id is no work's.
    expect(
      (await req('PATCH', `/api/admin/works/${italian.bookId}`, admin, { firstYear: 1 }))
        .statusCode,
    ).toBe(404);
    expect(
      (await req('PUT', `/api/admin/books/${missing}/work`, admin, { workId: work })).statusCode,
    ).toBe(404);
    expect(
      (await req('PUT', `/api/admin/books/${english.bookId}/work`, admin, { workId: missing }))
        .statusCode,
    ).toBe(404);
  });

  it('join two editions in one work, and search finds each by the other’s title', async () => {
    expect((await searchIds('the leopard')).items.map((i) => i.id)).toEqual([english.id]);
    const moved = await req('PUT', `/api/admin/books/${english.bookId}/work`, admin, {
      workId: work,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ bookId: english.bookId, workId: work });
    expect(await workOf(english.id)).toBe(work);
    const res = await req('PATCH', `/api/admin/works/${work}`, admin, {
      titles: { en: 'The Leopard' },
      firstYear: 1958,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(workSchema.parse(res.json())).toMatchObject({
      firstYear: 1958,
      author: 'Giuseppe Tomasi di Lampedusa',
      titles: [
        { language: 'en', title: 'The Leopard' },
        { language: 'it', title: 'Il Gattopardo' },
      ],
    });
    // Each title finds every copy, the copy under the title typed first.
    expect((await searchIds('the leopard')).items.map((i) => i.id).slice(0, 1)).toEqual([
      english.id,
    ]);
    expect((await searchIds('the leopard')).items.map((i) => i.id).sort()).toEqual(
      [italian.id, english.id, trade.id].sort(),
    );
    expect((await searchIds('gattopardo')).items).toHaveLength(3);
    // The title in the reader's language first.
    expect((await page(work, undefined, 'it')).work.title).toBe('Il Gattopardo');
    expect((await page(work, undefined, 'en')).work.title).toBe('The Leopard');
    // A title removed no longer finds the other edition.
    await req('PATCH', `/api/admin/works/${work}`, admin, { titles: { en: null } });
    expect((await searchIds('the leopard')).items.map((i) => i.id)).toEqual([english.id]);
    await req('PATCH', `/api/admin/works/${work}`, admin, { titles: { en: 'The Leopard' } });
  });

  it("split a book into a work of its own ('new')", async () => {
    const other = await list(ana, {
      ...leopard,
      title: 'Il Gattopardo (Oscar)',
      isbn: '9788804668237',
    });
    expect(await workOf(other.id)).not.toBe(work);
    await req('PUT', `/api/admin/books/${other.bookId}/work`, admin, { workId: work });
    expect(await workOf(other.id)).toBe(work);
    const split = await req('PUT', `/api/admin/books/${other.bookId}/work`, admin, {
      workId: 'new',
    });
    expect(split.statusCode, split.body).toBe(200);
    const own = split.json().workId;
    expect(own).not.toBe(work);
    expect(await workOf(other.id)).toBe(own);
    expect((await page(own)).work.titles).toEqual([
      { language: 'en', title: 'Il Gattopardo (Oscar)' },
    ]);
    await req('DELETE', `/api/listings/${other.id}`, ana);
  });
});

describe('the work page', () => {
  it('lists every available copy, cheapest delivered first, trade-only last', async () => {
    const { copies: list } = await page(work);
    expect(list.map((c) => c.id)).toEqual([english.id, italian.id, trade.id]);
    expect(list[0]).toMatchObject({
      language: 'English',
      condition: 'likeNew',
      price: 8,
      shippingCost: 2,
      total: 10,
      currency: 'EUR',
      seller: { id: ben.id, displayName: 'Ben Hall', rating: null, reviewCount: 0 },
    });
    expect(list[1]).toMatchObject({ total: 17.4, language: 'Italiano' });
    expect(list[2]).toMatchObject({ listingType: 'trade', price: null, total: null });
    expect((await req('GET', '/api/works/nope')).statusCode).toBe(404);
    expect(
      (
        await req(
          'GET',
          '/api/works/00000000-0000-4000-8000-000000000000',
          undefined,
          undefined,
          'it',
        )
      ).json().error.message,
    ).toBe('Quest’opera non esiste');
  });

  it('follows new copies and sales', async () => {
    const cheap = await list(cleo, { ...gattopardo, price: 3, shippingCost: 0 });
    expect(await copies(work)).toEqual([cheap.id, english.id, italian.id, trade.id]);
    const sold = await req('POST', `/api/listings/${cheap.id}/status`, cleo, { status: 'sold' });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(await copies(work)).toEqual([english.id, italian.id, trade.id]);
  });

  it('leaves out the copies of a seller on holiday until they are back', async () => {
    const away = new Date(clock + 3 * 86_400_000).toISOString().slice(0, 10);
    const res = await req('PUT', '/api/me/holiday', ben, { awayUntil: away, autoReply: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(await copies(work)).toEqual([italian.id, trade.id]);
    expect((await searchIds('gattopardo')).items.map((i) => i.id)).not.toContain(english.id);
    await req('DELETE', '/api/me/holiday', ben);
    expect(await copies(work)).toEqual([english.id, italian.id, trade.id]);
  });

  it('hides a blocked seller’s copies from the blocker (and the blocker’s from them)', async () => {
    const blocked = await req('PUT', `/api/blocks/${ana.id}`, viewer);
    expect(blocked.statusCode, blocked.body).toBeLessThan(300);
    expect(await copies(work, viewer)).toEqual([english.id, trade.id]);
    // Visitors and other members still see them.
    expect(await copies(work)).toEqual([english.id, italian.id, trade.id]);
    expect(await copies(work, cleo)).toEqual([english.id, italian.id, trade.id]);
    // The count beside a copy follows the same rule.
    const related = async (who?: Member) =>
      relatedListingsSchema.parse(
        (await req('GET', `/api/listings/${trade.id}/related`, who)).json(),
      ).work;
    expect(await related(viewer)).toEqual({ id: work, otherCopies: 1, from: 10, currency: 'EUR' });
    expect(await related()).toEqual({ id: work, otherCopies: 2, from: 10, currency: 'EUR' });
    await req('DELETE', `/api/blocks/${ana.id}`, viewer);
    expect(await copies(work, viewer)).toEqual([english.id, italian.id, trade.id]);
  });

  it('leaves out hidden copies and suspended sellers’ copies', async () => {
    await t.database.query('update book_listings set hidden_at = now() where id = $1', [
      italian.id,
    ]);
    expect(await copies(work)).toEqual([english.id, trade.id]);
    await t.database.query('update book_listings set hidden_at = null where id = $1', [italian.id]);
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [ben.id]);
    expect(await copies(work)).toEqual([italian.id, trade.id]);
    await t.database.query(`update users set account_status = 'active' where id = $1`, [ben.id]);
    expect(await copies(work)).toEqual([english.id, italian.id, trade.id]);
  });
});

describe('the API document', () => {
  it('has the work routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/works/{id}'].get.responses)).toEqual(['200', '400', '404']);
    for (const [path, method] of [
      ['/api/admin/works/{id}', 'patch'],
      ['/api/admin/books/{id}/work', 'put'],
    ])
      // A change also answers the terms' 403 (platform/auth.ts).
      expect(Object.keys(doc.paths[path][method].responses).sort()).toEqual([
        '200',
        '400',
        '401',
        '403',
        '404',
      ]);
  });
});
