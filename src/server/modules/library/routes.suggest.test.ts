import { describe, expect, it } from 'vitest';
import { suggestionsSchema } from '@shared/marketplaceAnswers';
import { SUGGESTIONS_MAX } from '@shared/marketplaceConstants';
import { createMember } from '../../test/members';
import { t, seed, useFixture } from './routes.fixture';

useFixture();

const ORIGIN = 'http://localhost:3000';

async function suggestRes(q: string | null, opts: { lang?: string; cookie?: string } = {}) {
  return t.inject({
    method: 'GET',
    url: q === null ? '/api/listings/suggest' : `/api/listings/suggest?q=${q}`,
    headers: {
      'accept-language': opts.lang ?? 'en',
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    },
  });
}

/** The suggestions as "kind: text", in order. */
async function suggestions(q: string, cookie?: string): Promise<string[]> {
  const res = await suggestRes(q, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return suggestionsSchema.parse(res.json()).items.map((i) => `${i.kind}: ${i.text}`);
}

describe('GET /api/listings/suggest', () => {
  it('suggests titles and authors in which the typed text starts a word, titles starting with it first', async () => {
    // Two available copies of "la pietra filosofale", one of "la camera dei segreti".
    expect(await suggestions('harry')).toEqual([
      'title: Harry Potter e la pietra filosofale',
      'title: Harry Potter e la camera dei segreti',
    ]);
    expect(await suggestions('Harry%20Pot')).toHaveLength(2);
    // A word inside the title or the author's name, not the inside of a word.
    expect(await suggestions('pietra')).toEqual(['title: Harry Potter e la pietra filosofale']);
    expect(await suggestions('rowl')).toEqual(['author: J.K. Rowling']);
    expect(await suggestions('otter')).toEqual([]);
    expect(await suggestions('ECO')).toEqual(['author: Umberto Eco']);
    // A title and an author may both start with it.
    // Equally listed: the shorter first.
    expect(await suggestions('i')).toEqual(['author: Italo Svevo', 'title: Il nome della rosa']);
  });

  it('ignores accents and case, both ways', async () => {
    expect(await suggestions('perche')).toEqual(['title: Perché le nazioni falliscono']);
    expect(await suggestions('PERCHÉ')).toEqual(['title: Perché le nazioni falliscono']);
    expect(await suggestions('acemoglu')).toEqual(['author: Daron Acemoğlu']);
    expect(await suggestions('exup')).toEqual([]);
  });

  it('leaves out titles and authors without an available listing', async () => {
    // Listing 6 is sold, listing 7 unavailable.
    expect(await suggestions('storia')).toEqual([]);
    expect(await suggestions('montanelli')).toEqual([]);
    expect(await suggestions('piccolo')).toEqual([]);
    expect(await suggestions('saint')).toEqual([]);
  });

  it(`answers at most ${SUGGESTIONS_MAX}, each title once, the most listed first`, async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      n: 100 + i,
      title: `Zibaldone volume ${String(i + 1).padStart(2, '0')}`,
      author: 'Giacomo Leopardi',
      genre: 'fiction',
      type: 'sell' as const,
      price: 10,
      condition: 'good',
    }));
    // Volume 12 listed three times (different case and accents too): first, and once.
    rows.push(
      { ...rows[11], n: 112, title: 'Zibaldone volume 12' },
      { ...rows[11], n: 113, title: 'ZIBALDONE VOLUME 12' },
    );
    await seed(t, rows, 30);
    const list = await suggestions('zibal');
    expect(list).toHaveLength(SUGGESTIONS_MAX);
    expect(list[0]).toBe('title: Zibaldone volume 12');
    expect(list.slice(1)).toEqual(
      Array.from({ length: SUGGESTIONS_MAX - 1 }, (_, i) => `title: Zibaldone volume 0${i + 1}`),
    );
    expect(await suggestions('leopardi')).toEqual(['author: Giacomo Leopardi']);
  });

  it('answers no items for nothing typed, and 400 in the reader’s language for bad input', async () => {
    expect(await suggestions('')).toEqual([]);
    expect(await suggestions('%20%20')).toEqual([]);
    // LIKE's and regular expressions' special characters are plain characters.
    for (const q of ['%25', '_', '%5C', '.*', '(', '%5B', "'"])
      expect(await suggestions(q)).toEqual([]);
    expect(await suggestions('j.k')).toEqual(['author: J.K. Rowling']);
    const long = await suggestRes('a'.repeat(201));
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.q).toBe('The search text can be at most 200 characters');
    const italian = await suggestRes('a'.repeat(201), { lang: 'it' });
    expect(italian.json().error.fields.q).toMatch(/200/);
    expect(italian.json().error.fields.q).not.toBe(long.json().error.fields.q);
    expect((await suggestRes(null)).statusCode).toBe(400);
    for (const q of ['%00', 'har%00ry']) {
      const res = await suggestRes(q);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await suggestRes('a'.repeat(200))).statusCode).toBe(200);
  });

  it('is a public read, and leaves out the listings of members a block stands between', async () => {
    const anonymous = await suggestRes('harry');
    expect(anonymous.headers['cache-control']).toMatch(/public/);
    const reader = await createMember(t, { username: 'suggest_reader' });
    expect(await suggestions('harry', reader.cookie)).toHaveLength(2);
    const blocked = await t.inject({
      method: 'PUT',
      url: '/api/blocks/anna',
      headers: { cookie: reader.cookie, origin: ORIGIN },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    // Only Marco's copy of "la pietra filosofale" is left; Anna's titles and authors are gone.
    expect(await suggestions('harry', reader.cookie)).toEqual([
      'title: Harry Potter e la pietra filosofale',
    ]);
    expect(await suggestions('eco', reader.cookie)).toEqual([]);
    const signedIn = await suggestRes('harry', { cookie: reader.cookie });
    expect(signedIn.headers['cache-control']).not.toMatch(/public/);
    // Everybody else still sees them.
    expect(await suggestions('harry')).toHaveLength(2);
    expect(await suggestions('eco')).toEqual(['author: Umberto Eco']);
  });

  it('is in the OpenAPI document with its errors', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/listings/suggest'].get;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400']));
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('q');
  });
});
