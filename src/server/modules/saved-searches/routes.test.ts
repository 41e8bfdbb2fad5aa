import { beforeAll, describe, expect, it } from 'vitest';
import { SAVED_SEARCHES_MAX } from '@shared/schemas/savedSearches';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';

let t: TestApp;
let ada: Member;
let bruno: Member;
const call = callAs(() => t);
const URL_ = '/api/me/saved-searches';

beforeAll(async () => {
  t = await createTestApp();
  [ada, bruno] = await Promise.all([createMember(t), createMember(t)]);
});

async function save(who: Member, name: string, filters: object = { q: 'tolkien' }) {
  const res = await call(who, 'POST', URL_, { name, filters });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; libraryPath: string; notify: boolean };
}
const list = async (who: Member, page = 1) => {
  const res = await call(who, 'GET', `${URL_}?page=${page}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { id: string; name: string }[]; total: number; max: number };
};
const clear = () => t.database.query('delete from saved_searches');

describe('saving a search', () => {
  it('keeps the filters, normalised, and answers the library path that runs it', async () => {
    await clear();
    const res = await call(ada, 'POST', URL_, {
      name: '  Fantasy cheap  ',
      filters: {
        q: ' Il Signore  ',
        author: 'Tolkien',
        genre: 'fantasy',
        type: 'sell',
        condition: 'good',
        minPrice: '2',
        maxPrice: 10.5,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Fantasy cheap',
      notify: true,
      filters: {
        q: 'Il Signore',
        author: 'Tolkien',
        genre: 'fantasy',
        type: 'sell',
        condition: 'good',
        minPrice: 2,
        maxPrice: 10.5,
      },
      libraryPath:
        '/library?q=Il+Signore&author=Tolkien&genre=fantasy&type=sell&condition=good&minPrice=2&maxPrice=10.5',
    });
    const page = await list(ada);
    expect(page.items.map((s) => s.name)).toEqual(['Fantasy cheap']);
    expect(page.max).toBe(SAVED_SEARCHES_MAX);
  });

  it('refuses visitors with 401 and changes nothing', async () => {
    await clear();
    const res = await call(null, 'POST', URL_, { name: 'x', filters: { q: 'x' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Unauthorized. Please login.');
    expect((await call(null, 'GET', URL_)).statusCode).toBe(401);
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from saved_searches',
    );
    expect(n).toBe(0);
  });

  it('refuses bad input with field messages in the reader’s language', async () => {
    const cases: [object, string, string, string][] = [
      [
        { name: '', filters: { q: 'x' } },
        'name',
        'Give the search a name',
        'Dai un nome alla ricerca',
      ],
      [
        { name: 'x'.repeat(81), filters: { q: 'x' } },
        'name',
        'The name can be at most 80 characters',
        'Il nome può avere al massimo 80 caratteri',
      ],
      [
        { name: 'x', filters: { q: 'y'.repeat(201) } },
        'filters.q',
        'The search text can be at most 200 characters',
        'Il testo di ricerca può avere al massimo 200 caratteri',
      ],
      [{ name: 'x', filters: { genre: 'westerns' } }, 'filters.genre', 'Unknown genre', ''],
      [
        { name: 'x', filters: { minPrice: 10, maxPrice: 5 } },
        'filters.maxPrice',
        'Maximum price must be greater than or equal to the minimum price',
        '',
      ],
      [
        { name: 'x', filters: { maxPrice: 1e12 } },
        'filters.maxPrice',
        'Maximum price must be a number between 0 and 100000',
        '',
      ],
    ];
    for (const [body, field, en, it_] of cases) {
      const res = await call(ada, 'POST', URL_, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.fields[field]).toBe(en);
      if (it_) {
        const inItalian = await call(ada, 'POST', URL_, body, 'it');
        expect(inItalian.json().error.fields[field]).toBe(it_);
      }
    }
  });

  it('refuses an empty search: it would match every book', async () => {
    const res = await call(ada, 'POST', URL_, { name: 'All', filters: { q: '   ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'Type words or choose a filter to save: an empty search would match every book',
    );
  });

  it('refuses NUL bytes and a huge body without a 500', async () => {
    const nul = await call(ada, 'POST', URL_, { name: 'a\u0000b', filters: { q: 'x' } });
    expect(nul.statusCode).toBe(400);
    const nulQ = await call(ada, 'POST', URL_, { name: 'ab', filters: { q: 'x\u0000' } });
    expect(nulQ.statusCode).toBe(400);
    const huge = await call(ada, 'POST', URL_, { name: 'n'.repeat(2_000_000), filters: {} });
    expect([400, 413]).toContain(huge.statusCode);
  });

  it('keeps names unique per member, case aside, but two members may use the same', async () => {
    await clear();
    await save(ada, 'Eco');
    const again = await call(ada, 'POST', URL_, { name: 'ECO', filters: { q: 'rosa' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('You already have a saved search with this name');
    await save(bruno, 'Eco');
  });

  it(`keeps at most ${SAVED_SEARCHES_MAX} per member, even when saved all at once`, async () => {
    await clear();
    const answers = await Promise.all(
      Array.from({ length: SAVED_SEARCHES_MAX + 5 }, (_, i) =>
        call(ada, 'POST', URL_, { name: `s${i}`, filters: { q: `word${i}` } }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(SAVED_SEARCHES_MAX);
    const refused = answers.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0].json().error.message).toBe(
      `You can keep at most ${SAVED_SEARCHES_MAX} saved searches: delete one first`,
    );
    expect((await list(ada)).total).toBe(SAVED_SEARCHES_MAX);
  });

  it('lists a page at a time, newest first', async () => {
    await clear();
    for (let i = 0; i < 12; i++) await save(ada, `p${i}`);
    const first = await list(ada, 1);
    const second = await list(ada, 2);
    expect(first.total).toBe(12);
    expect(first.items).toHaveLength(10);
    expect(first.items[0].name).toBe('p11');
    expect(second.items.map((s) => s.name)).toEqual(['p1', 'p0']);
    expect((await call(ada, 'GET', `${URL_}?page=0`)).statusCode).toBe(400);
    expect((await call(ada, 'GET', `${URL_}?page=99999999999`)).statusCode).toBe(400);
    expect((await list(bruno)).items.every((s) => !s.name.startsWith('p'))).toBe(true);
  });
});

describe('renaming and deleting', () => {
  it('PATCH changes only what is sent', async () => {
    await clear();
    const s = await save(ada, 'Old name', { q: 'dune', maxPrice: 9 });
    const renamed = await call(ada, 'PATCH', `${URL_}/${s.id}`, { name: 'New name' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'New name',
      notify: true,
      filters: { q: 'dune', maxPrice: 9 },
    });
    const off = await call(ada, 'PATCH', `${URL_}/${s.id}`, { notify: false });
    expect(off.json()).toMatchObject({ name: 'New name', notify: false });
    const nothing = await call(ada, 'PATCH', `${URL_}/${s.id}`, {});
    expect(nothing.statusCode).toBe(400);
  });

  it('another member’s search is not found and stays as it was; visitors get 401', async () => {
    await clear();
    const s = await save(ada, 'Mine');
    const cases = [
      await call(bruno, 'PATCH', `${URL_}/${s.id}`, { name: 'Stolen' }),
      await call(bruno, 'DELETE', `${URL_}/${s.id}`),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Saved search not found');
    }
    expect((await call(null, 'PATCH', `${URL_}/${s.id}`, { name: 'x' })).statusCode).toBe(401);
    expect((await call(null, 'DELETE', `${URL_}/${s.id}`)).statusCode).toBe(401);
    expect((await list(ada)).items.map((x) => x.name)).toEqual(['Mine']);
  });

  it('an id that is no id, or too long, is a 404 or a 400, never a 500', async () => {
    for (const id of ['nope', '00000000-0000-0000-0000-000000000000', '%00', 'x'.repeat(65)]) {
      const res = await call(ada, 'DELETE', `${URL_}/${id}`);
      expect([400, 404]).toContain(res.statusCode);
    }
  });

  it('renaming to a name taken by another of mine is a 409; to its own name is fine', async () => {
    await clear();
    const a = await save(ada, 'One');
    await save(ada, 'Two');
    expect((await call(ada, 'PATCH', `${URL_}/${a.id}`, { name: 'two' })).statusCode).toBe(409);
    expect((await call(ada, 'PATCH', `${URL_}/${a.id}`, { name: 'ONE' })).statusCode).toBe(200);
  });

  it('the owner deletes; a second delete is a 404', async () => {
    await clear();
    const s = await save(ada, 'Gone');
    expect((await call(ada, 'DELETE', `${URL_}/${s.id}`)).statusCode).toBe(204);
    expect((await call(ada, 'DELETE', `${URL_}/${s.id}`)).statusCode).toBe(404);
    expect((await list(ada)).total).toBe(0);
  });
});
