import { beforeAll, describe, expect, it } from 'vitest';
import { adminWorkDetailSchema, adminWorkPageSchema, workSchema } from '@shared/works';
import { logPageSchema } from '@shared/moderation';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, expectRefusal, makeAdmin, requester, type Member } from '../../test/members';
import { gattopardo } from '../../test/listings';

/**
 * The admins' works screen (issue 35): search works, read one with its books, correct it, move a
 * book, merge two works; admins only; every change in the moderation log.
 */
let t: TestApp;
let ana: Member;
let ben: Member;
let admin: Member;
const req = (...args: Parameters<ReturnType<typeof requester>>) => requester(t)(...args);
const missing = '00000000-0000-4000-8000-000000000000';

async function list(who: Member, body: object) {
  const res = await req('POST', '/api/listings', who, { ...gattopardo, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; bookId: string };
}
const workOf = async (listingId: string) =>
  (
    await t.database.query<{ work_id: string }>('select work_id from book_listings where id = $1', [
      listingId,
    ])
  )[0].work_id;
const search = async (q: string, page = 1) => {
  const res = await req('GET', `/api/admin/works?q=${encodeURIComponent(q)}&page=${page}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return adminWorkPageSchema.parse(res.json());
};
/** The newest entries of the moderation log, as the admin page reads them. */
const log = async () => {
  const res = await req('GET', '/api/admin/log', admin);
  expect(res.statusCode, res.body).toBe(200);
  return logPageSchema.parse(res.json()).items;
};

let guerra: { id: string; bookId: string };
let war: { id: string; bookId: string };
let anna: { id: string; bookId: string };

beforeAll(async () => {
  t = await createTestApp();
  ana = await createMember(t, { username: 'ana_wa', displayName: 'Ana Admin-Test' });
  ben = await createMember(t, { username: 'ben_wa', displayName: 'Ben Admin-Test' });
  admin = await createMember(t, { displayName: 'Ada Admin' });
  await makeAdmin(t, admin);
  const tolstoj = { author: 'Lev Tolstoj', isbn: undefined };
  guerra = await list(ana, { ...tolstoj, title: 'Guerra e pace', language: 'Italiano' });
  war = await list(ben, { ...tolstoj, title: 'War and Peace', language: 'English', price: 7 });
  anna = await list(ben, { ...tolstoj, title: 'Anna Karenina', language: 'Italiano' });
});

describe('admins only', () => {
  it('refuses visitors (401) and members (404) on every works route, changing nothing', async () => {
    const work = await workOf(guerra.id);
    const routes: Array<[method: 'GET' | 'POST', url: string, body?: object]> = [
      ['GET', '/api/admin/works?q=guerra'],
      ['GET', `/api/admin/works/${work}`],
      ['POST', `/api/admin/works/${work}/merge`, { from: await workOf(war.id) }],
    ];
    for (const [method, url, body] of routes) {
      expect((await req(method, url, undefined, body)).statusCode, url).toBe(401);
      await expectRefusal(t, [method, url, ana, body], {
        status: 404,
        en: 'Not found',
        it: 'Non trovato',
      });
    }
    expect(await workOf(war.id)).not.toBe(work);
    expect((await log()).filter((e) => e.action === 'merge_works')).toEqual([]);
  });
});

describe('finding works', () => {
  it('finds a work by a title in any language or its author, accents and case aside', async () => {
    const work = await workOf(guerra.id);
    expect((await search('guerra')).items.map((w) => w.id)).toEqual([work]);
    expect((await search('GUERRA E PACE')).items[0]).toMatchObject({
      id: work,
      author: 'Lev Tolstoj',
      titles: [{ language: 'it', title: 'Guerra e pace' }],
      books: 1,
      copies: 1,
    });
    expect((await search('tolstòj')).total).toBe(3);
    // An exact title first.
    expect((await search('anna karenina')).items[0].id).toBe(await workOf(anna.id));
    // Wildcards are letters: '%' finds nothing.
    expect((await search('%')).total).toBe(0);
    expect((await search('')).total).toBeGreaterThanOrEqual(3);
  });

  it('pages the list, and refuses a bad page or a huge query with a message', async () => {
    for (let i = 0; i < 22; i++) {
      const [{ id }] = await t.database.query<{ id: string }>(
        `insert into works (author) values ('Autore di prova') returning id`,
      );
      await t.database.query(
        `insert into work_titles (work_id, language, title) values ($1, 'it', $2)`,
        [id, `Racconto numero ${i}`],
      );
    }
    const first = await search('autore di prova');
    expect(first).toMatchObject({ total: 22, page: 1, pageSize: 20 });
    expect(first.items).toHaveLength(20);
    const second = await search('autore di prova', 2);
    expect(second.items).toHaveLength(2);
    expect(new Set([...first.items, ...second.items].map((w) => w.id)).size).toBe(22);
    expect((await search('autore di prova', 9)).total).toBe(22);
    const bad = await req('GET', '/api/admin/works?page=0', admin);
    expect(bad.statusCode).toBe(400);
    const huge = await req('GET', `/api/admin/works?q=${'a'.repeat(201)}`, admin, undefined, 'it');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.fields.q).toBe('Questo testo è troppo lungo');
  });

  it('reads one work with its books (editions) and their listings; 404 for none', async () => {
    const work = await workOf(guerra.id);
    const res = await req('GET', `/api/admin/works/${work}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const detail = adminWorkDetailSchema.parse(res.json());
    expect(detail.books).toEqual([
      {
        id: guerra.bookId,
        title: 'Guerra e pace',
        author: 'Lev Tolstoj',
        language: 'it',
        isbn: null,
        listings: 1,
        available: 1,
      },
    ]);
    for (const id of [missing, 'nope', guerra.bookId])
      expect((await req('GET', `/api/admin/works/${id}`, admin)).statusCode).toBe(404);
  });
});

describe('corrections in the moderation log', () => {
  it('an edit of a work is logged with what changed; an edit that changes nothing is not', async () => {
    const work = await workOf(anna.id);
    const res = await req('PATCH', `/api/admin/works/${work}`, admin, {
      titles: { en: 'Anna Karenina' },
      firstYear: 1877,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = await log();
    expect(entry).toMatchObject({
      actor: 'Ada Admin',
      action: 'edit_work',
      kind: 'work',
      itemId: work,
      reason: 'year: — → 1877; en: — → «Anna Karenina»',
    });
    const again = await req('PATCH', `/api/admin/works/${work}`, admin, { firstYear: 1877 });
    expect(again.statusCode).toBe(200);
    expect((await log())[0].id).toBe(entry.id);
  });

  it('moving a book is logged with both works', async () => {
    const [from, to] = [await workOf(war.id), await workOf(guerra.id)];
    const res = await req('PUT', `/api/admin/books/${war.bookId}/work`, admin, { workId: to });
    expect(res.statusCode, res.body).toBe(200);
    expect(await workOf(war.id)).toBe(to);
    const [entry] = await log();
    expect(entry).toMatchObject({ action: 'move_book', kind: 'book', itemId: war.bookId });
    expect(entry.reason).toBe(
      `«War and Peace», Lev Tolstoj: ${from} (en: «War and Peace») → ${to} (it: «Guerra e pace»)`,
    );
    // Back where it was, for the merge below: a new work of its own.
    const back = await req('PUT', `/api/admin/books/${war.bookId}/work`, admin, { workId: 'new' });
    expect(back.statusCode).toBe(200);
    expect((await log())[0].reason).toContain('(new)');
  });

  it('merging joins books, copies, titles, year and wishes, deletes the other, and is logged', async () => {
    const keep = await workOf(guerra.id);
    const from = await workOf(war.id);
    await t.database.query('update works set first_year = 1869 where id = $1', [from]);
    // Ben wishes both, Ana the one merged away: one wish each afterwards.
    for (const [who, workId] of [
      [ben, keep],
      [ben, from],
      [ana, from],
    ] as const) {
      const wished = await req('POST', '/api/me/wishlist/items', who, { workId });
      expect(wished.statusCode, wished.body).toBe(201);
    }
    const same = await req('POST', `/api/admin/works/${keep}/merge`, admin, { from: keep });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.fields.from).toBe('Choose another work to merge into this one');
    const gone = await req('POST', `/api/admin/works/${keep}/merge`, admin, { from: missing });
    expect(gone.statusCode).toBe(404);
    // Twice at once: one merges, the other finds the work gone.
    const answers = await Promise.all([
      req('POST', `/api/admin/works/${keep}/merge`, admin, { from }),
      req('POST', `/api/admin/works/${keep}/merge`, admin, { from }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
    const merged = workSchema.parse(answers.find((a) => a.statusCode === 200)!.json());
    expect(merged).toMatchObject({
      firstYear: 1869,
      titles: [
        { language: 'en', title: 'War and Peace' },
        { language: 'it', title: 'Guerra e pace' },
      ],
    });
    expect(await workOf(war.id)).toBe(keep);
    expect((await req('GET', `/api/works/${from}`)).statusCode).toBe(404);
    expect((await req('GET', `/api/works/${keep}`)).json().copies).toHaveLength(2);
    const wishes = await t.database.query<{ user_id: string; work_id: string }>(
      'select user_id, work_id from wishlist_items where work_id is not null order by user_id',
    );
    expect(wishes.map((w) => w.work_id)).toEqual([keep, keep]);
    expect(new Set(wishes.map((w) => w.user_id))).toEqual(new Set([ana.id, ben.id]));
    const [entry] = await log();
    expect(entry).toMatchObject({ action: 'merge_works', kind: 'work', itemId: keep });
    expect(entry.reason).toBe(
      `${from} (en: «War and Peace», Lev Tolstoj) → ${keep} (en: «War and Peace», it: «Guerra e pace»)`,
    );
    // The Italian title finds the English copy now.
    const found = await req('GET', '/api/listings?q=guerra%20e%20pace');
    expect(found.json().items.map((i: { id: string }) => i.id)).toContain(war.id);
  });
});

describe('the API document', () => {
  it('has the admin works routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    for (const [path, method] of [
      ['/api/admin/works', 'get'],
      ['/api/admin/works/{id}', 'get'],
      ['/api/admin/works/{id}/merge', 'post'],
    ])
      expect(Object.keys(doc.paths[path][method].responses).sort(), path).toEqual(
        // A change also answers the terms' 403 (platform/auth.ts).
        ['200', '400', '401', ...(method === 'get' ? [] : ['403']), '404'],
      );
  });
});
