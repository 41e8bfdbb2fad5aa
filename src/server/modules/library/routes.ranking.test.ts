import { describe, expect, it } from 'vitest';
import { demo, search, useDemoLibrary } from './demo.fixture';

useDemoLibrary();

/** What a reader types, and whose books (the author's name) must come before any other. */
const authors: Array<[query: string, author: string]> = [
  // A surname that is also a stem or a prefix of a title word: Calvin and Hobbes, Economics.
  ['calvino', 'Italo Calvino'],
  ['Calvino', 'Italo Calvino'],
  ['eco', 'Umberto Eco'],
  ['umberto eco', 'Umberto Eco'],
  ['italo calvino', 'Italo Calvino'],
  ['tolkien', 'J.R.R. Tolkien'],
  ['rowling', 'J.K. Rowling'],
  // A surname that is a word of another author's title: The Return of the King.
  ['king', 'Stephen King'],
  ['austen', 'Jane Austen'],
  ['orwell', 'George Orwell'],
  ['camilleri', 'Andrea Camilleri'],
  ['christie', 'Agatha Christie'],
  ['asimov', 'Isaac Asimov'],
  ['primo levi', 'Primo Levi'],
  ['morante', 'Elsa Morante'],
];

/** What a reader types, and the title of the first result. */
const titles: Array<[query: string, title: string]> = [
  ['il nome della rosa', 'Il nome della rosa'],
  ['Il Nome della Rosa', 'Il nome della rosa'],
  ['nome rosa', 'Il nome della rosa'],
  ['the name of the rose', 'The Name of the Rose'],
  ['harry potter', 'Harry Potter'],
  ['harry potter e la pietra filosofale', 'Harry Potter e la pietra filosofale'],
  ['harry potter and the prisoner of azkaban', 'Harry Potter and the Prisoner of Azkaban'],
  ['guerra e pace', 'Guerra e pace'],
  ['pace', 'Guerra e pace'],
  ['dune', 'Dune'],
  ['gatsby', 'The Great Gatsby'],
  ['orgoglio e pregiudizio', 'Orgoglio e pregiudizio'],
  ['pride and prejudice', 'Pride and Prejudice'],
  ['the hobbit', 'The Hobbit'],
  ['economics', 'Principles of Economics'],
  // The title's own word, exactly, over an author it only begins (Italo Calvino).
  ['calvin', 'Calvin and Hobbes'],
  ['città invisibili', 'Le città invisibili'],
  // A work's title in another language finds its copies (demo works, scripts/data/demo-works.ts).
  ['war and peace', 'Guerra e pace'],
  ['the lord of the rings', 'Il signore degli anelli'],
  ['crime and punishment', 'Delitto e castigo'],
  ['invisible cities', 'Le città invisibili'],
  ['citta invisibili', 'Le città invisibili'],
];

/**
 * A name spelled as another language writes it (author_spellings, migration 0055), and the
 * demo authors whose books must all come first, however each edition spells the name.
 */
const spellings: Array<[query: string, authors: string[]]> = [
  ['tolstoy', ['Lev Tolstoj']],
  ['Tolstoj', ['Lev Tolstoj']],
  ['tolstoi', ['Lev Tolstoj']],
  ['dostoevsky', ['Fëdor Dostoevskij']],
  ['Dostoevskij', ['Fëdor Dostoevskij']],
  ['fyodor dostoevsky', ['Fëdor Dostoevskij']],
  ['dostoyevsky', ['Fëdor Dostoevskij']],
  ['chekhov', ['Anton Čechov', 'Anton Chekhov']],
  ['Čechov', ['Anton Čechov', 'Anton Chekhov']],
  ['cechov', ['Anton Čechov', 'Anton Chekhov']],
  ['anton chekhov', ['Anton Čechov', 'Anton Chekhov']],
  ['bulgakov', ['Michail Bulgakov']],
  ['mikhail bulgakov', ['Michail Bulgakov']],
];

describe('ranking on the demo library', () => {
  it.each(spellings)(
    '"%s" puts every book by %j first, however it is spelled',
    async (query, names) => {
      const hits = await search(`q=${encodeURIComponent(query)}`);
      for (const name of names)
        expect(
          hits.some((h) => h.author === name),
          `${query}: ${name}`,
        ).toBe(true);
      const theirs = hits.filter((h) => names.includes(h.author)).length;
      expect(
        hits.slice(0, theirs).every((h) => names.includes(h.author)),
        hits.map((h) => `${h.title} / ${h.author}`).join('\n'),
      ).toBe(true);
    },
  );

  it('the other spellings are search words only: a card keeps its author as written', async () => {
    const hits = await search('q=tolstoy');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.author)).not.toContain('Tolstoy');
    const { items } = (await demo.inject({ method: 'GET', url: '/api/listings?q=chekhov' })).json();
    expect(items.map((h: { title: string }) => h.title).sort()).toEqual(
      expect.arrayContaining(['Il giardino dei ciliegi', 'Uncle Vanya']),
    );
  });

  it.each(authors)('"%s" puts every book by %s first', async (query, author) => {
    const hits = await search(`q=${encodeURIComponent(query)}`);
    const theirs = hits.filter((h) => h.author === author).length;
    expect(theirs, query).toBeGreaterThan(0);
    expect(
      hits.slice(0, theirs).map((h) => h.author),
      hits.map((h) => `${h.title} / ${h.author}`).join('\n'),
    ).toEqual(Array(theirs).fill(author));
  });

  it.each(titles)('"%s" puts %s first', async (query, title) => {
    const [first] = await search(`q=${encodeURIComponent(query)}`);
    expect(first?.title.startsWith(title), `${query}: ${first?.title}`).toBe(true);
  });

  it.each([
    ['calvino', 'Calvin and Hobbes'],
    ['eco', 'Principles of Economics'],
    ['king', 'The Return of the King'],
  ])('"%s" still finds %s, after the exact matches', async (query, title) => {
    const hits = await search(`q=${query}`);
    const at = hits.findIndex((h) => h.title === title);
    expect(at).toBeGreaterThan(0);
    expect(hits[0].title).not.toBe(title);
  });

  it('ranks the same way in every page size and in the Italian interface', async () => {
    const all = await search('q=calvino');
    const italian = await search('q=calvino', 'it');
    expect(italian.map((h) => h.id)).toEqual(all.map((h) => h.id));
  });
});
