/**
 * Demo listings for `npm run seed:demo`: a few dozen real books (Italian and English) offered by
 * the demo members for sale, trade or both, one already sold (a completed transaction, so
 * ratings move). Idempotent: a member's listing with the same title is never added twice.
 */
import type { SeedStep } from './seed-demo';
import { isbn10To13 } from '../src/shared/marketplace';

interface DemoListing {
  seller: string;
  title: string;
  author: string;
  isbn10?: string;
  genre: string;
  type: 'sell' | 'trade' | 'both';
  price?: number;
  condition: 'new' | 'likeNew' | 'good' | 'fair' | 'poor';
  language: string;
  description: string;
  location: string;
  daysAgo: number;
  soldTo?: string;
}

export const demoListings: DemoListing[] = [
  {
    seller: 'giulia_legge',
    title: 'Il nome della rosa',
    author: 'Umberto Eco',
    isbn10: '8845292614',
    genre: 'mystery',
    type: 'sell',
    price: 9.5,
    condition: 'good',
    language: 'Italiano',
    description: 'Edizione Bompiani, qualche segno del tempo sul dorso. Pagine perfette.',
    location: 'Milano',
    daysAgo: 2,
  },
  {
    seller: 'giulia_legge',
    title: 'Delitto e castigo',
    author: 'Fëdor Dostoevskij',
    genre: 'fiction',
    type: 'both',
    price: 7,
    condition: 'fair',
    language: 'Italiano',
    description: 'Traduzione Einaudi, sottolineature a matita nei primi capitoli.',
    location: 'Milano',
    daysAgo: 12,
  },
  {
    seller: 'giulia_legge',
    title: 'Assassinio sull’Orient Express',
    author: 'Agatha Christie',
    genre: 'mystery',
    type: 'trade',
    condition: 'good',
    language: 'Italiano',
    description: 'Lo scambio volentieri con un altro giallo classico.',
    location: 'Milano',
    daysAgo: 30,
  },
  {
    seller: 'marco_rossi',
    title: 'SPQR. Storia dell’antica Roma',
    author: 'Mary Beard',
    genre: 'history',
    type: 'sell',
    price: 14,
    condition: 'likeNew',
    language: 'Italiano',
    description: 'Letto una volta, come nuovo. Copertina rigida.',
    location: 'Roma',
    daysAgo: 1,
  },
  {
    seller: 'marco_rossi',
    title: 'Perché le nazioni falliscono',
    author: 'Daron Acemoglu, James A. Robinson',
    genre: 'business',
    type: 'sell',
    price: 12,
    condition: 'good',
    language: 'Italiano',
    description: 'Saggio di economia, ottimo stato.',
    location: 'Roma',
    daysAgo: 8,
  },
  {
    seller: 'marco_rossi',
    title: 'Dylan Dog. Il ritorno del mostro',
    author: 'Tiziano Sclavi',
    genre: 'comics',
    type: 'both',
    price: 4,
    condition: 'good',
    language: 'Italiano',
    description: 'Albo originale, conservato in busta.',
    location: 'Roma',
    daysAgo: 20,
  },
  {
    seller: 'fra_esposito',
    title: 'L’amica geniale',
    author: 'Elena Ferrante',
    genre: 'fiction',
    type: 'sell',
    price: 8,
    condition: 'good',
    language: 'Italiano',
    description: 'Primo volume della tetralogia. Spedisco con piego di libri.',
    location: 'Napoli',
    daysAgo: 3,
    soldTo: 'emily_reads',
  },
  {
    seller: 'fra_esposito',
    title: 'Storia del nuovo cognome',
    author: 'Elena Ferrante',
    genre: 'fiction',
    type: 'sell',
    price: 8,
    condition: 'good',
    language: 'Italiano',
    description: 'Secondo volume, stesso stato del primo.',
    location: 'Napoli',
    daysAgo: 3,
  },
  {
    seller: 'fra_esposito',
    title: 'Gomorra',
    author: 'Roberto Saviano',
    genre: 'nonFiction',
    type: 'trade',
    condition: 'fair',
    language: 'Italiano',
    description: 'Copertina rovinata, interno integro.',
    location: 'Napoli',
    daysAgo: 45,
  },
  {
    seller: 'lucaferrari',
    title: 'Il sistema periodico',
    author: 'Primo Levi',
    genre: 'fiction',
    type: 'both',
    price: 6.5,
    condition: 'likeNew',
    language: 'Italiano',
    description: 'Tascabile Einaudi, senza segni.',
    location: 'Torino',
    daysAgo: 5,
  },
  {
    seller: 'lucaferrari',
    title: 'Analisi matematica 1',
    author: 'Enrico Giusti',
    genre: 'textbook',
    type: 'sell',
    price: 22,
    condition: 'good',
    language: 'Italiano',
    description: 'Esercizi svolti a matita, facilmente cancellabili.',
    location: 'Torino',
    daysAgo: 60,
  },
  {
    seller: 'chiara_romano',
    title: 'Il piccolo principe',
    author: 'Antoine de Saint-Exupéry',
    genre: 'children',
    type: 'sell',
    price: 5,
    condition: 'good',
    language: 'Italiano',
    description: 'Edizione illustrata, perfetta da regalare.',
    location: 'Bologna',
    daysAgo: 4,
  },
  {
    seller: 'chiara_romano',
    title: 'Harry Potter e la pietra filosofale',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'both',
    price: 7,
    condition: 'fair',
    language: 'Italiano',
    description: 'Edizione Salani, letto e riletto.',
    location: 'Bologna',
    daysAgo: 15,
  },
  {
    seller: 'ale_colombo',
    title: 'Le città invisibili',
    author: 'Italo Calvino',
    genre: 'fiction',
    type: 'sell',
    price: 8.9,
    condition: 'new',
    language: 'Italiano',
    description: 'Mai letto, regalo doppio.',
    location: 'Firenze',
    daysAgo: 6,
  },
  {
    seller: 'ale_colombo',
    title: 'Ossi di seppia',
    author: 'Eugenio Montale',
    genre: 'poetry',
    type: 'trade',
    condition: 'good',
    language: 'Italiano',
    description: 'Oscar Mondadori, cerco in cambio altra poesia del Novecento.',
    location: 'Firenze',
    daysAgo: 25,
  },
  {
    seller: 'sofia_ricci',
    title: 'Sei personaggi in cerca d’autore',
    author: 'Luigi Pirandello',
    genre: 'drama',
    type: 'sell',
    price: 4.5,
    condition: 'good',
    language: 'Italiano',
    description: 'Edizione scolastica con note.',
    location: 'Palermo',
    daysAgo: 9,
  },
  {
    seller: 'sofia_ricci',
    title: 'Il Gattopardo',
    author: 'Giuseppe Tomasi di Lampedusa',
    genre: 'fiction',
    type: 'sell',
    price: 35,
    condition: 'likeNew',
    language: 'Italiano',
    description: 'Edizione Feltrinelli del 1963, tenuta con cura.',
    location: 'Palermo',
    daysAgo: 7,
  },
  {
    seller: 'davidegreco',
    title: 'Fondazione',
    author: 'Isaac Asimov',
    genre: 'sciFi',
    type: 'both',
    price: 6,
    condition: 'good',
    language: 'Italiano',
    description: 'Urania collezione. Scambio con altra fantascienza.',
    location: 'Bari',
    daysAgo: 11,
  },
  {
    seller: 'davidegreco',
    title: 'Dune',
    author: 'Frank Herbert',
    genre: 'sciFi',
    type: 'sell',
    price: 11,
    condition: 'likeNew',
    language: 'Italiano',
    description: 'Edizione Fanucci, come nuovo.',
    location: 'Bari',
    daysAgo: 2,
  },
  {
    seller: 'emily_reads',
    title: 'Pride and Prejudice',
    author: 'Jane Austen',
    genre: 'romance',
    type: 'sell',
    price: 5,
    condition: 'good',
    language: 'English',
    description: 'Penguin Classics paperback, light shelf wear.',
    location: 'London',
    daysAgo: 1,
  },
  {
    seller: 'emily_reads',
    title: 'The Hunger Games',
    author: 'Suzanne Collins',
    isbn10: '0439023483',
    genre: 'youngAdult',
    type: 'trade',
    condition: 'good',
    language: 'English',
    description: 'Happy to swap for any Italian graded reader.',
    location: 'London',
    daysAgo: 14,
  },
  {
    seller: 'jamesobrien',
    title: 'Sapiens: A Brief History of Humankind',
    author: 'Yuval Noah Harari',
    genre: 'history',
    type: 'sell',
    price: 10,
    condition: 'likeNew',
    language: 'English',
    description: 'Read once, no markings.',
    location: 'Dublin',
    daysAgo: 5,
  },
  {
    seller: 'jamesobrien',
    title: 'Atomic Habits',
    author: 'James Clear',
    genre: 'selfHelp',
    type: 'both',
    price: 9,
    condition: 'new',
    language: 'English',
    description: 'Unread hardcover.',
    location: 'Dublin',
    daysAgo: 10,
  },
  {
    seller: 'olivia_b',
    title: 'The Hobbit',
    author: 'J.R.R. Tolkien',
    isbn10: '0618260307',
    genre: 'fantasy',
    type: 'sell',
    price: 7.5,
    condition: 'good',
    language: 'English',
    description: 'Paperback with the Alan Lee cover.',
    location: 'Manchester',
    daysAgo: 3,
  },
  {
    seller: 'olivia_b',
    title: 'Steve Jobs',
    author: 'Walter Isaacson',
    genre: 'biography',
    type: 'sell',
    price: 8,
    condition: 'fair',
    language: 'English',
    description: 'Spine creased, all pages intact.',
    location: 'Manchester',
    daysAgo: 40,
  },
  {
    seller: 'dan_hughes',
    title: 'The Structure of Scientific Revolutions',
    author: 'Thomas S. Kuhn',
    genre: 'academic',
    type: 'sell',
    price: 13,
    condition: 'good',
    language: 'English',
    description: '50th anniversary edition, some highlighting.',
    location: 'Edinburgh',
    daysAgo: 4,
  },
  {
    seller: 'dan_hughes',
    title: 'A Room with a View',
    author: 'E. M. Forster',
    genre: 'fiction',
    type: 'trade',
    condition: 'poor',
    language: 'English',
    description: 'Well loved copy set in Florence; would trade for anything Italian.',
    location: 'Edinburgh',
    daysAgo: 18,
  },
];

export const seedListings: SeedStep = async (ctx) => {
  const { database } = ctx;
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  let created = 0;
  for (const l of demoListings) {
    const sellerId = byUsername.get(l.seller);
    if (!sellerId) continue;
    const [exists] = await database.query(
      'select 1 from book_listings where user_id = $1 and title = $2',
      [sellerId, l.title],
    );
    if (exists) continue;
    const isbn13 = l.isbn10 ? isbn10To13(l.isbn10) : null;
    const authors = l.author.split(/\s*,\s*/);
    let [book] = await database.query<{ id: string }>(
      `select id from books where ($1::text is not null and isbn_13 = $1)
         or (lower(title) = lower($2) and lower(author) = lower($3)) limit 1`,
      [isbn13, l.title, authors.join(', ')],
    );
    if (!book) {
      [book] = await database.query<{ id: string }>(
        `insert into books (title, authors, author, isbn_10, isbn_13, language)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [
          l.title,
          authors,
          authors.join(', '),
          l.isbn10 ?? null,
          isbn13,
          l.language === 'English' ? 'en' : 'it',
        ],
      );
    }
    const created_at = new Date(Date.now() - l.daysAgo * 24 * 60 * 60 * 1000);
    const [listing] = await database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, genre, language, isbn,
         listing_type, condition, price, currency, description, location, status, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'EUR', $11, $12, $13, $14, $14)
       returning id`,
      [
        book.id,
        sellerId,
        l.title,
        l.author,
        l.genre,
        l.language,
        isbn13,
        l.type,
        l.condition,
        l.price ?? null,
        l.description,
        l.location,
        l.soldTo ? 'sold' : 'available',
        created_at,
      ],
    );
    const buyerId = l.soldTo ? byUsername.get(l.soldTo) : undefined;
    if (buyerId) {
      await database.query(
        `insert into transactions (listing_id, buyer_id, seller_id, kind) values ($1, $2, $3, 'sale')`,
        [listing.id, buyerId, sellerId],
      );
    }
    created++;
  }
  ctx.log(`listings: ${created} created, ${demoListings.length - created} already there`);
};
