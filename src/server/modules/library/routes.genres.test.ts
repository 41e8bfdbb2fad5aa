import { describe, expect, it } from 'vitest';
import { listingPageSchema } from '@shared/marketplace';
import { demo, search, useDemoLibrary } from './demo.fixture';

useDemoLibrary();

const page = async (query: string) => {
  const res = await demo.inject({ method: 'GET', url: `/api/listings?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return listingPageSchema.parse(res.json());
};

/** The ids of every available listing of a genre, as the genre filter gives them. */
const ofGenre = async (genre: string) => (await search(`genre=${genre}`)).map((h) => h.id).sort();

describe('genre words', () => {
  it.each([
    ['fantascienza', 'sciFi'],
    ['Fantascienza', 'sciFi'],
    ['science fiction', 'sciFi'],
    ['sci-fi', 'sciFi'],
    ['gialli', 'mystery'],
    ['giallo', 'mystery'],
    ['thriller', 'mystery'],
    ['fantasy', 'fantasy'],
    ['romanzi rosa', 'romance'],
    ['romance', 'romance'],
    ['fumetti', 'comics'],
    ['poesia', 'poetry'],
    ['biografie', 'biography'],
  ])('"%s" finds every book of the genre %s, and says so', async (q, genre) => {
    const genreIds = await ofGenre(genre);
    expect(genreIds.length).toBeGreaterThan(2);
    const hits = await search(`q=${encodeURIComponent(q)}`);
    expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining(genreIds));
    const body = await page(`q=${encodeURIComponent(q)}&facets=1`);
    expect(body.genres).toEqual([genre]);
    expect(body.total).toBe(hits.length);
    // The genre's facet count is its whole shelf.
    expect(body.facets?.genres.find((g) => g.value === genre)?.count).toBe(genreIds.length);
  });

  it('keeps the books with the word itself, and ranks a title with it above the genre alone', async () => {
    // "giallo" in a description ("Cerco in cambio un giallo"), whatever the book's genre.
    const giallo = await search('q=giallo');
    const mystery = new Set(await ofGenre('mystery'));
    expect(giallo.some((h) => !mystery.has(h.id))).toBe(true);
    // "storia": the titles with the word first, then the history shelf's other books.
    const storia = await search('q=storia');
    const titled = storia.filter((h) => /\bstoria\b/i.test(h.title)).length;
    expect(titled).toBeGreaterThan(2);
    expect(storia.slice(0, titled).every((h) => /\bstoria\b/i.test(h.title))).toBe(true);
    expect(storia.length).toBeGreaterThan(titled);
  });

  it('narrows the genre with the other words: "giallo camilleri" is Camilleri’s crime', async () => {
    const hits = await search('q=giallo%20camilleri');
    expect(hits.length).toBeGreaterThan(2);
    expect(hits.every((h) => h.author === 'Andrea Camilleri')).toBe(true);
    const body = await page('q=giallo%20camilleri');
    expect(body.genres).toEqual(['mystery']);
  });

  it('takes a genre word only where it means the genre: "rosa" alone is a word', async () => {
    const rosa = await page('q=rosa');
    expect(rosa.genres).toBeUndefined();
    expect(rosa.items.every((h) => /rosa|rose/i.test(h.title))).toBe(true);
    // The phrase of a title holding a genre word stays first.
    expect((await search('q=il%20nome%20della%20rosa'))[0].title).toBe('Il nome della rosa');
    expect((await page('q=dune')).genres).toBeUndefined();
  });

  it('corrects a misspelt genre word', async () => {
    const body = await page('q=fantascenza');
    expect(body.correctedQ).toBe('fantascienza');
    expect(body.genres).toEqual(['sciFi']);
    expect(body.total).toBe((await ofGenre('sciFi')).length);
  });

  it('matches the genre of a listing after its genre changes', async () => {
    const [dune] = await search('q=dune&genre=sciFi');
    await demo.database.query(`update book_listings set genre = 'fantasy' where id = $1`, [
      dune.id,
    ]);
    try {
      const ids = async (q: string) => (await search(`q=${q}&sort=newest`)).map((h) => h.id);
      expect(await ids('fantasy')).toContain(dune.id);
      expect(await ids('fantascienza')).not.toContain(dune.id);
    } finally {
      await demo.database.query(`update book_listings set genre = 'sciFi' where id = $1`, [
        dune.id,
      ]);
    }
  });
});
