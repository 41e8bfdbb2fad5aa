/**
 * The library benchmark's query mix (issue 25): MIX_SIZE distinct searches, so that neither the
 * 2-second micro-cache of anonymous answers nor the 10-second totals cache decides the figures
 * (a run of 10 s at a few hundred requests a second asks each search about once). Built from the
 * benchmark's books (goodbooks-10k, popular books more often, as the seed lists them) with a
 * fixed pseudo-random sequence, so the API's load generator and the floor's ask the same searches
 * in the same order:
 *   45 % words from a title or an author (one to three, sometimes a prefix), relevance by default,
 *        some newest or by price, some with a genre, a price range or a condition;
 *    5 % one or two letters off (typo correction);
 *   35 % browsing: genre, type, condition, price range, sort and page, no words;
 *    5 % an author filter;
 *   10 % any of the above with facets=1 (what /library asks for its filter panel).
 * The old 68 searches (lib/mix.ts) stay for the ads benchmark.
 */
import { MARKET_GENRES } from '../../../src/shared/marketplace';
import { readBooks } from './seed';
import { BOOKS_CSV } from './server';

export const MIX_SIZE = Number(process.env.BENCH_MIX_SIZE ?? 3000);

/** mulberry32: a small deterministic generator. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONDITIONS = ['new', 'likeNew', 'good', 'fair', 'poor'];
const TYPES = ['sell', 'trade', 'both'];

export function libraryMix(size = MIX_SIZE): string[] {
  const books = readBooks(BOOKS_CSV);
  const random = generator(25);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  // As the seed: book n listed with probability growing towards the most popular.
  const book = () => books[Math.floor(books.length * random() ** 2)];
  const words = (text: string) =>
    (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3);
  const textWords = () => {
    const b = book();
    const fromAuthor = random() < 0.3;
    const source = words(fromAuthor ? (b.authors[0] ?? b.title) : b.title);
    if (!source.length) return 'libro';
    const start = Math.floor(random() * source.length);
    const n = 1 + Math.floor(random() * Math.min(3, source.length - start));
    const chosen = source.slice(start, start + n);
    // Sometimes the last word half typed (a prefix).
    if (random() < 0.2) {
      const last = chosen[chosen.length - 1];
      chosen[chosen.length - 1] = last.slice(0, Math.max(3, Math.ceil(last.length / 2)));
    }
    return chosen.join(' ').toLowerCase();
  };
  const typo = (w: string) => {
    const letters = [...w];
    const edits = random() < 0.5 ? 1 : 2;
    for (let e = 0; e < edits && letters.length > 4; e++) {
      const i = 1 + Math.floor(random() * (letters.length - 2));
      if (random() < 0.5) letters.splice(i, 1);
      else [letters[i], letters[i + 1]] = [letters[i + 1], letters[i]];
    }
    return letters.join('');
  };
  const priceRange = () => {
    const low = Math.floor(random() * 30);
    return `minPrice=${low}&maxPrice=${low + 5 + Math.floor(random() * 40)}`;
  };
  const browse = () => {
    const p: string[] = [];
    if (random() < 0.6) p.push(`genre=${pick(MARKET_GENRES)}`);
    if (random() < 0.25) p.push(`type=${pick(TYPES)}`);
    if (random() < 0.25) p.push(`condition=${pick(CONDITIONS)}`);
    if (random() < 0.35) p.push(priceRange());
    if (random() < 0.4) p.push(`sort=${pick(['price_asc', 'price_desc', 'newest'])}`);
    if (random() < 0.3) p.push(`page=${2 + Math.floor(random() * 20)}`);
    return p;
  };
  const seen = new Set<string>();
  const mix: string[] = [];
  for (let tries = 0; mix.length < size && tries < size * 20; tries++) {
    const r = random();
    let p: string[];
    if (r < 0.45) {
      p = [`q=${encodeURIComponent(textWords())}`];
      if (random() < 0.25) p.push(`sort=${pick(['newest', 'price_asc', 'price_desc'])}`);
      if (random() < 0.2) p.push(`genre=${pick(MARKET_GENRES)}`);
      if (random() < 0.15) p.push(priceRange());
      if (random() < 0.1) p.push(`condition=${pick(CONDITIONS)}`);
      if (random() < 0.1) p.push(`page=${2 + Math.floor(random() * 3)}`);
    } else if (r < 0.5) {
      const w = textWords().split(' ');
      const i = Math.floor(random() * w.length);
      w[i] = typo(w[i]);
      p = [`q=${encodeURIComponent(w.join(' '))}`];
    } else if (r < 0.85) p = browse();
    else if (r < 0.9) {
      const author = words(book().authors[0] ?? 'king').at(-1) ?? 'king';
      p = [`author=${encodeURIComponent(author.toLowerCase())}`, ...browse().slice(0, 1)];
    } else {
      p = random() < 0.6 ? [`q=${encodeURIComponent(textWords())}`] : browse();
      p.push('facets=1');
    }
    const q = p.join('&');
    if (seen.has(q)) continue;
    seen.add(q);
    mix.push(q);
  }
  return mix;
}

/** The searches that warm caches before a run: the mix's last ones, which runs reach last. */
export const warmup = (mix: string[]) => mix.slice(-200);
