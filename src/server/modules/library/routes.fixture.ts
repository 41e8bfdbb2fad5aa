import { beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';

export let t: TestApp;
/** The app's clock: moved forward past the shelves' 30 s cache. */
export let clock = Date.now();
/** Moves the app's clock forward (a test file cannot assign an imported binding). */
export const advanceClock = (ms: number) => {
  clock += ms;
};
/** Listing ids by their number in the table below. */
export const id: Record<number, string> = {};

export interface Seed {
  n: number;
  title: string;
  author: string;
  genre: string;
  type: 'sell' | 'trade' | 'both';
  price: number | null;
  condition: string;
  status?: string;
  description?: string;
  /** Same catalogue book as listing n. */
  sameBookAs?: number;
  seller?: 'anna' | 'marco';
}

// Listing n was listed n days ago.
export const seeds: Seed[] = [
  {
    n: 1,
    title: 'Il nome della rosa',
    author: 'Umberto Eco',
    genre: 'fiction',
    type: 'sell',
    price: 15,
    condition: 'good',
    description: "Un giallo medievale in un'abbazia",
  },
  {
    n: 2,
    title: 'La coscienza di Zeno',
    author: 'Italo Svevo',
    genre: 'fiction',
    type: 'both',
    price: 8,
    condition: 'fair',
  },
  {
    n: 3,
    title: 'Harry Potter e la pietra filosofale',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'sell',
    price: 25,
    condition: 'likeNew',
  },
  {
    n: 4,
    title: 'Harry Potter e la camera dei segreti',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'trade',
    price: null,
    condition: 'good',
  },
  {
    n: 5,
    title: 'Perché le nazioni falliscono',
    author: 'Daron Acemoğlu',
    genre: 'business',
    type: 'sell',
    price: 30,
    condition: 'new',
  },
  {
    n: 6,
    title: "Storia d'Italia",
    author: 'Indro Montanelli',
    genre: 'history',
    type: 'sell',
    price: 50,
    condition: 'new',
    status: 'sold',
  },
  {
    n: 7,
    title: 'Il piccolo principe',
    author: 'Antoine de Saint-Exupéry',
    genre: 'children',
    type: 'sell',
    price: 5,
    condition: 'poor',
    status: 'unavailable',
  },
  {
    n: 8,
    title: 'Analisi matematica 1',
    author: 'Enrico Giusti',
    genre: 'textbook',
    type: 'sell',
    price: 40,
    condition: 'likeNew',
  },
  {
    n: 9,
    title: 'Harry Potter e la pietra filosofale',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'sell',
    price: 12,
    condition: 'good',
    sameBookAs: 3,
    seller: 'marco',
  },
];

export async function seed(test: TestApp, rows: Seed[], offsetDays = 0) {
  for (const s of rows) {
    let bookId: string;
    if (s.sameBookAs) {
      [{ book_id: bookId }] = await test.database.query<{ book_id: string }>(
        'select book_id from book_listings where id = $1',
        [id[s.sameBookAs]],
      );
    } else {
      [{ id: bookId }] = await test.database.query<{ id: string }>(
        `insert into books (title, authors, author) values ($1, array[$2], $2) returning id`,
        [s.title, s.author],
      );
    }
    const [row] = await test.database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price,
         condition, status, description, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() - make_interval(days => $11::int))
       returning id`,
      [
        bookId,
        s.seller ?? 'anna',
        s.title,
        s.author,
        s.genre,
        s.type,
        s.price,
        s.condition,
        s.status ?? 'available',
        s.description ?? null,
        s.n + offsetDays,
      ],
    );
    id[s.n] = row.id;
  }
}

export async function list(query: string, lang = 'en') {
  const res = await t.inject({
    method: 'GET',
    url: `/api/listings${query ? `?${query}` : ''}`,
    headers: { 'accept-language': lang },
  });
  return res;
}
export async function ids(query: string): Promise<number[]> {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  const byId = Object.fromEntries(Object.entries(id).map(([n, v]) => [v, Number(n)]));
  return res.json().items.map((i: { id: string }) => byId[i.id]);
}

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp({ deps: { now: () => new Date(clock) } });
    await t.database.query(
      `insert into users (id, email, display_name, username) values
         ('anna', 'anna@example.com', 'Anna Rossi', 'anna'),
         ('marco', 'marco@example.com', 'Marco Bianchi', 'marco')`,
    );
    await seed(t, seeds);
  });
}
