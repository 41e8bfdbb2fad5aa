/**
 * Works of the demo library (`npm run seed:demo`, scripts/seed/works.ts): one book's titles in
 * Italian and English, so that either title finds every copy (issue 35). The author as the
 * demo books write it, the year of first publication. A title in a language the demo books do not
 * list (War and Peace, The Lord of the Rings) is what a reader may type all the same.
 */
export interface DemoWork {
  author: string;
  year: number;
  it: string;
  en: string;
}

type Row = [it: string, en: string, author: string, year: number];

const rows: Row[] = [
  ['Guerra e pace', 'War and Peace', 'Lev Tolstoj', 1869],
  ['Anna Karenina', 'Anna Karenina', 'Lev Tolstoj', 1877],
  ['Il signore degli anelli', 'The Lord of the Rings', 'J.R.R. Tolkien', 1954],
  ['Il nome della rosa', 'The Name of the Rose', 'Umberto Eco', 1980],
  ['Delitto e castigo', 'Crime and Punishment', 'Fëdor Dostoevskij', 1866],
  ['I fratelli Karamazov', 'The Brothers Karamazov', 'Fëdor Dostoevskij', 1880],
  ['Orgoglio e pregiudizio', 'Pride and Prejudice', 'Jane Austen', 1813],
  ['Cime tempestose', 'Wuthering Heights', 'Emily Brontë', 1847],
  ['1984', 'Nineteen Eighty-Four', 'George Orwell', 1949],
  ['Fahrenheit 451', 'Fahrenheit 451', 'Ray Bradbury', 1953],
  ['Fondazione', 'Foundation', 'Isaac Asimov', 1951],
  ['Dune', 'Dune', 'Frank Herbert', 1965],
  [
    'Harry Potter e la pietra filosofale',
    'Harry Potter and the Philosopher’s Stone',
    'J.K. Rowling',
    1997,
  ],
  ['Hunger Games', 'The Hunger Games', 'Suzanne Collins', 2008],
  ['Il giovane Holden', 'The Catcher in the Rye', 'J. D. Salinger', 1951],
  ['Cent’anni di solitudine', 'One Hundred Years of Solitude', 'Gabriel García Márquez', 1967],
  ['Il diario di Anna Frank', 'The Diary of a Young Girl', 'Anne Frank', 1947],
  ['Sapiens. Da animali a dèi', 'Sapiens: A Brief History of Humankind', 'Yuval Noah Harari', 2011],
  ['SPQR. Storia dell’antica Roma', 'SPQR: A History of Ancient Rome', 'Mary Beard', 2015],
  ['Pensieri lenti e veloci', 'Thinking, Fast and Slow', 'Daniel Kahneman', 2011],
  ['Padre ricco padre povero', 'Rich Dad Poor Dad', 'Robert T. Kiyosaki', 1997],
  [
    'Le 7 regole per avere successo',
    'The 7 Habits of Highly Effective People',
    'Stephen R. Covey',
    1989,
  ],
  [
    'Come trattare gli altri e farseli amici',
    'How to Win Friends and Influence People',
    'Dale Carnegie',
    1936,
  ],
  ['Assassinio sull’Orient Express', 'Murder on the Orient Express', 'Agatha Christie', 1934],
  ['Dieci piccoli indiani', 'And Then There Were None', 'Agatha Christie', 1939],
  ['Il piccolo principe', 'The Little Prince', 'Antoine de Saint-Exupéry', 1943],
  ['Il vecchio e il mare', 'The Old Man and the Sea', 'Ernest Hemingway', 1952],
  ['Il Gattopardo', 'The Leopard', 'Giuseppe Tomasi di Lampedusa', 1958],
  ['Se questo è un uomo', 'If This Is a Man', 'Primo Levi', 1947],
  ['Le città invisibili', 'Invisible Cities', 'Italo Calvino', 1972],
  ['L’amica geniale', 'My Brilliant Friend', 'Elena Ferrante', 2011],
  ['La metamorfosi', 'The Metamorphosis', 'Franz Kafka', 1915],
  ['Il processo', 'The Trial', 'Franz Kafka', 1925],
  ['Lo straniero', 'The Stranger', 'Albert Camus', 1942],
  ['Il maestro e Margherita', 'The Master and Margarita', 'Michail Bulgakov', 1967],
];

export const demoWorks: DemoWork[] = rows.map(([it, en, author, year]) => ({
  it,
  en,
  author,
  year,
}));
