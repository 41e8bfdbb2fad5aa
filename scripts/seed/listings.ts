/**
 * Demo listings for `npm run seed:demo`: a few hundred listings of real books (Italian and
 * English, scripts/data/demo-books.ts) offered by the demo members for sale, trade or both, in
 * every condition, listed over the last months, some reserved, sold or traded (completed
 * transactions, so ratings move). A couple of dozen are written by hand; the rest are planned
 * from the book list by a generator seeded by each book, so the plan is the same on every run.
 * Idempotent: a member's listing with the same title is never added twice. Covers are the
 * generated ones (no image, no network). Inserted in a few batched statements.
 */
import type { DemoMember, SeedStep } from './types';
import { demoBooks, type DemoBook } from '../data/demo-books';
import { demoListings } from '../data/demo-listings';

export { demoListings };
import { hash32 } from '../../src/shared/cover';
import {
  isbn10To13,
  type Condition,
  type Genre,
  type ListingType,
} from '../../src/shared/marketplace';

/** A listing as the seed inserts it. */
export interface PlannedListing {
  seller: string;
  title: string;
  author: string;
  isbn13: string | null;
  /** Year of first publication, when the book list knows it (the book page shows it). */
  year?: number;
  genre: Genre;
  type: ListingType;
  price: number | null;
  condition: Condition;
  /** As the sell form stores it: 'Italiano' or 'English'. */
  language: string;
  description: string;
  location: string;
  daysAgo: number;
  status: 'available' | 'reserved' | 'sold' | 'traded';
  /** The other member of a completed sale or trade. */
  buyer?: string;
}

// ---------- the generated part ----------

/** A small deterministic generator (mulberry32) seeded by a book, so each book's plan is stable. */
function generator(seed: string) {
  let a = hash32(seed);
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
  };
}

const CONDITION_WEIGHTS: Array<[Condition, number]> = [
  ['new', 8],
  ['likeNew', 24],
  ['good', 42],
  ['fair', 19],
  ['poor', 7],
];
/** What a used copy keeps of a new one's price. */
const CONDITION_FACTOR: Record<Condition, number> = {
  new: 1,
  likeNew: 0.8,
  good: 0.62,
  fair: 0.45,
  poor: 0.3,
};
/** A new copy's price range by genre, in euros. */
const NEW_PRICE: Partial<Record<Genre, [number, number]>> = {
  textbook: [28, 70],
  academic: [16, 34],
  comics: [8, 22],
  children: [8, 16],
  poetry: [10, 18],
  drama: [8, 14],
  business: [14, 24],
  history: [15, 28],
};

const DESCRIPTIONS: Record<'it' | 'en', Record<Condition, string[]>> = {
  it: {
    new: ['Mai letto, ancora incellofanato.', 'Nuovo, regalo doppio.', 'Comprato e mai aperto.'],
    likeNew: [
      'Letto una volta, come nuovo.',
      'Nessun segno, dorso perfetto.',
      'Tenuto con cura, sembra appena comprato.',
    ],
    good: [
      'Buone condizioni, qualche segno del tempo sulla copertina.',
      'Letto con cura, pagine integre.',
      'Dorso un po’ segnato, interno pulito.',
    ],
    fair: [
      'Sottolineature a matita nei primi capitoli.',
      'Copertina consumata, pagine ingiallite ma complete.',
      'Angoli piegati, si legge benissimo.',
    ],
    poor: [
      'Molto vissuto: copertina staccata ma tutte le pagine ci sono.',
      'Macchie d’acqua sul taglio, testo leggibile.',
    ],
  },
  en: {
    new: [
      'Unread, still in its shrink wrap.',
      'New, an unwanted duplicate.',
      'Bought, never opened.',
    ],
    likeNew: [
      'Read once, no markings.',
      'Spine uncreased, like new.',
      'Kept with care, looks unread.',
    ],
    good: [
      'Good condition, light shelf wear on the cover.',
      'Read carefully, all pages clean.',
      'Spine creased, interior tidy.',
    ],
    fair: [
      'Pencil notes in the first chapters.',
      'Worn cover, yellowed but complete pages.',
      'Dog-eared corners, perfectly readable.',
    ],
    poor: [
      'Well loved: loose cover, every page present.',
      'Water marks on the edges, text readable.',
    ],
  },
};
const DEAL_NOTES: Record<'it' | 'en', Record<ListingType, string[]>> = {
  it: {
    sell: ['Spedisco con piego di libri.', 'Consegna a mano in città.', ''],
    trade: ['Lo scambio volentieri con un romanzo.', 'Cerco in cambio un giallo o un classico.'],
    both: ['Vendo o scambio, come preferisci.', 'Aperto anche a uno scambio.'],
  },
  en: {
    sell: ['Posted well wrapped.', 'Can hand it over in town.', ''],
    trade: ['Happy to swap for a novel.', 'Looking for crime or classics in exchange.'],
    both: ['Sale or swap, your choice.', 'Open to a trade as well.'],
  },
};

function weighted<T>(rnd: () => number, items: Array<[T, number]>): T {
  const total = items.reduce((sum, [, w]) => sum + w, 0);
  let x = rnd() * total;
  for (const [item, w] of items) {
    x -= w;
    if (x < 0) return item;
  }
  return items[items.length - 1][0];
}

/** The listings planned for one book: one copy, sometimes two or three from different members. */
function planBook(book: DemoBook, members: DemoMember[]): PlannedListing[] {
  const r = generator(`listing\u0000${book.title}\u0000${book.author}`);
  const copies = r.next() < 0.03 ? 3 : r.next() < 0.12 ? 2 : 1;
  // Members read mostly in their own language; a few Italians sell English books and back.
  const home = members.filter((m) => m.language === book.language);
  const away = members.filter((m) => m.language !== book.language);
  const sellers = new Set<string>();
  const planned: PlannedListing[] = [];
  for (let attempt = 0; planned.length < copies && attempt < 20; attempt++) {
    const pool = r.next() < 0.8 && home.length ? home : away.length ? away : home;
    const member = r.pick(pool);
    if (!member || sellers.has(member.username)) continue;
    sellers.add(member.username);
    const type = weighted<ListingType>(r.next, [
      ['sell', 50],
      ['both', 25],
      ['trade', 25],
    ]);
    const condition = weighted(r.next, CONDITION_WEIGHTS);
    const [low, high] = NEW_PRICE[book.genre] ?? [9, 20];
    const newPrice = low + r.next() * (high - low);
    const price =
      type === 'trade'
        ? null
        : Math.max(2, Math.round(newPrice * CONDITION_FACTOR[condition] * 2) / 2);
    const x = r.next();
    const status: PlannedListing['status'] =
      x < 0.07 && type !== 'trade'
        ? 'sold'
        : x < 0.1 && type !== 'sell'
          ? 'traded'
          : x < 0.14
            ? 'reserved'
            : 'available';
    const buyer =
      status === 'sold' || status === 'traded'
        ? r.pick(members.filter((m) => m.username !== member.username))?.username
        : undefined;
    const lang = member.language;
    const note = r.pick(DEAL_NOTES[lang][type]);
    planned.push({
      seller: member.username,
      title: book.title,
      author: book.author,
      isbn13: book.isbn13,
      year: book.year,
      genre: book.genre,
      type,
      price,
      condition,
      language: book.language === 'it' ? 'Italiano' : 'English',
      description: `${r.pick(DESCRIPTIONS[lang][condition])} ${note}`.trim(),
      location: member.city,
      // Squared: most listings are recent, a few are months old.
      daysAgo: Math.floor(r.next() ** 2 * 240),
      status,
      buyer,
    });
  }
  return planned;
}

/** Every demo listing: the hand-written ones, then those planned from the book list. */
export function planDemoListings(members: DemoMember[]): PlannedListing[] {
  const planned: PlannedListing[] = demoListings.map((l) => ({
    seller: l.seller,
    title: l.title,
    author: l.author,
    isbn13: l.isbn10 ? isbn10To13(l.isbn10) : null,
    genre: l.genre,
    type: l.type,
    price: l.price ?? null,
    condition: l.condition,
    language: l.language,
    description: l.description,
    location: l.location,
    daysAgo: l.daysAgo,
    status: l.soldTo ? 'sold' : 'available',
    buyer: l.soldTo,
  }));
  const taken = new Set(planned.map((l) => `${l.seller}\u0000${l.title}`));
  for (const book of demoBooks) {
    for (const l of planBook(book, members)) {
      const key = `${l.seller}\u0000${l.title}`;
      if (taken.has(key)) continue;
      taken.add(key);
      planned.push(l);
    }
  }
  return planned;
}

// ---------- the step ----------

const bookKey = (title: string, author: string) =>
  `${title.toLocaleLowerCase('it')}\u0000${author.toLocaleLowerCase('it')}`;

export const seedListings: SeedStep = async (ctx) => {
  const { database } = ctx;
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  const plan = planDemoListings(ctx.members).filter((l) => byUsername.has(l.seller));

  const existing = await database.query<{ user_id: string; title: string }>(
    'select user_id, title from book_listings where user_id = any($1::text[])',
    [[...byUsername.values()]],
  );
  const listed = new Set(existing.map((r) => `${r.user_id}\u0000${r.title}`));
  const todo = plan.filter((l) => !listed.has(`${byUsername.get(l.seller)}\u0000${l.title}`));
  if (todo.length === 0) {
    ctx.log(`listings: 0 created, ${plan.length} already there`);
    return;
  }

  // The catalogue rows: found by ISBN-13 or by title and author, the missing ones added at once.
  const books = new Map<
    string,
    { title: string; author: string; isbn13: string | null; year: string | null; language: string }
  >();
  for (const l of todo) {
    books.set(bookKey(l.title, l.author), {
      title: l.title,
      author: l.author,
      isbn13: l.isbn13,
      year: l.year ? String(l.year) : null,
      language: l.language === 'English' ? 'en' : 'it',
    });
  }
  const wanted = [...books.values()];
  const found = await database.query<{
    id: string;
    title: string;
    author: string;
    isbn_13: string | null;
  }>(
    `select distinct on (lower(b.title), lower(b.author)) b.id, b.title, b.author, b.isbn_13
       from books b
       join unnest($1::text[], $2::text[]) as w(title, author)
         on lower(b.title) = lower(w.title) and lower(b.author) = lower(w.author)
     order by lower(b.title), lower(b.author), b.created_at`,
    [wanted.map((b) => b.title), wanted.map((b) => b.author)],
  );
  const bookIds = new Map(found.map((b) => [bookKey(b.title, b.author), b.id]));
  const missing = wanted.filter((b) => !bookIds.has(bookKey(b.title, b.author)));
  if (missing.length) {
    const added = await database.query<{ id: string; title: string; author: string }>(
      `insert into books (title, authors, author, isbn_13, language, published_date)
       select title, string_to_array(author, ', '), author, isbn_13, language, year
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
           as b(title, author, isbn_13, language, year)
       returning id, title, author`,
      [
        missing.map((b) => b.title),
        missing.map((b) => b.author),
        missing.map((b) => b.isbn13),
        missing.map((b) => b.language),
        missing.map((b) => b.year),
      ],
    );
    for (const b of added) bookIds.set(bookKey(b.title, b.author), b.id);
  }

  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  const inserted = await database.query<{ id: string; user_id: string; title: string }>(
    `insert into book_listings (book_id, user_id, title, author, genre, language, isbn,
       listing_type, condition, price, currency, description, location, status, created_at, updated_at)
     select book_id, user_id, title, author, genre, language, isbn, listing_type, condition, price,
       'EUR', description, location, status, created_at, created_at
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
         $7::text[], $8::text[], $9::text[], $10::numeric[], $11::text[], $12::text[], $13::text[],
         $14::timestamptz[])
         as l(book_id, user_id, title, author, genre, language, isbn, listing_type, condition,
           price, description, location, status, created_at)
     returning id, user_id, title`,
    [
      todo.map((l) => bookIds.get(bookKey(l.title, l.author))),
      todo.map((l) => byUsername.get(l.seller)),
      todo.map((l) => l.title),
      todo.map((l) => l.author),
      todo.map((l) => l.genre),
      todo.map((l) => l.language),
      todo.map((l) => l.isbn13),
      todo.map((l) => l.type),
      todo.map((l) => l.condition),
      todo.map((l) => (l.price === null ? null : l.price.toFixed(2))),
      todo.map((l) => l.description),
      todo.map((l) => l.location),
      todo.map((l) => l.status),
      todo.map((l) => new Date(now - l.daysAgo * day).toISOString()),
    ],
  );

  // Completed sales and trades, dated with their listing.
  const listingIds = new Map(inserted.map((r) => [`${r.user_id}\u0000${r.title}`, r.id]));
  const deals = todo.filter((l) => l.buyer && byUsername.has(l.buyer));
  if (deals.length) {
    await database.query(
      // Demo deals stand for exchanges both members agreed to, so they can be reviewed.
      `insert into transactions (listing_id, buyer_id, seller_id, kind, created_at, agreed_at)
       select l, b, s, k, at, at
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
         as d(l, b, s, k, at)`,
      [
        deals.map((l) => listingIds.get(`${byUsername.get(l.seller)}\u0000${l.title}`)),
        deals.map((l) => byUsername.get(l.buyer!)),
        deals.map((l) => byUsername.get(l.seller)),
        deals.map((l) => (l.status === 'traded' ? 'trade' : 'sale')),
        deals.map((l) => new Date(now - Math.max(0, l.daysAgo - 2) * day).toISOString()),
      ],
    );
  }
  ctx.log(`listings: ${inserted.length} created, ${plan.length - inserted.length} already there`);
};
