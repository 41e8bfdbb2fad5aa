import { describe, expect, it } from 'vitest';
import { MARKET_GENRES } from '@shared/marketplaceConstants';
import { AD_GENRES } from '@shared/schemas/ads';
import { listMigrations } from '../../db/migrate';
import { ada, api, call, t, useFixture } from './routes.fixture';

useFixture();

/** Ads speak the listings' genres: one list in the product (decision 0057, migration 0029). */
describe('ad genres', () => {
  it('are the listings’ genres: a listing genre is accepted, an old ad-only genre refused', async () => {
    expect([...AD_GENRES]).toEqual([...MARKET_GENRES]);
    const ok = await call(ada, 'POST', '/api/ads', {
      title: 'T',
      description: 'D',
      genre: 'comics',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().ad.genre).toBe('comics');

    const old = await call(
      ada,
      'POST',
      '/api/ads',
      { title: 'T', description: 'D', genre: 'thriller' },
      { 'accept-language': 'it' },
    );
    expect(old.statusCode).toBe(400);
    expect(old.json().error.fields.genre).toBe('Seleziona un genere');
  });

  it('an old link (?genre=thriller) lists the ads of the genre it became (mystery)', async () => {
    const mystery = await api.createAd(ada, { genre: 'mystery', title: 'Il giallo' });
    await api.createAd(ada, { genre: 'poetry', title: 'Versi' });
    const res = await call(null, 'GET', '/api/ads?genre=thriller');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((a: { id: string }) => a.id)).toEqual([mystery]);
    expect((await call(null, 'GET', '/api/ads?genre=toString')).statusCode).toBe(400);
  });

  it('migration 0029 maps the stored ad-only genres onto the list and keeps the shared ones', async () => {
    const ids = {
      thriller: await api.createAd(ada, { title: 'A' }),
      educational: await api.createAd(ada, { title: 'B' }),
      cooking: await api.createAd(ada, { title: 'C' }),
      fantasy: await api.createAd(ada, { title: 'D' }),
    };
    for (const [genre, id] of Object.entries(ids))
      await t.database.query('update book_advertisements set genre = $2 where id = $1', [
        id,
        genre,
      ]);
    const migration = listMigrations().find((m) => m.name.startsWith('0029_'))!;
    await t.database.exec(migration.sql);
    const rows = await t.database.query<{ id: string; genre: string }>(
      'select id, genre from book_advertisements where id = any($1::uuid[])',
      [Object.values(ids)],
    );
    const genreOf = (id: string) => rows.find((r) => r.id === id)?.genre;
    expect(genreOf(ids.thriller)).toBe('mystery');
    expect(genreOf(ids.educational)).toBe('academic');
    expect(genreOf(ids.cooking)).toBe('nonFiction');
    expect(genreOf(ids.fantasy)).toBe('fantasy');
    expect(rows.every((r) => (AD_GENRES as readonly string[]).includes(r.genre))).toBe(true);
  });
});
