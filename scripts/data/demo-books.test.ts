import { describe, expect, it } from 'vitest';
import { MARKET_GENRES, isValidIsbn13 } from '../../src/shared/marketplace';
import { demoBooks } from './demo-books';
import { demoWorks } from './demo-works';

describe('demo books', () => {
  it('holds a couple of hundred Italian and English books, each once', () => {
    expect(demoBooks.length).toBeGreaterThanOrEqual(150);
    expect(demoBooks.filter((b) => b.language === 'it').length).toBeGreaterThan(100);
    expect(demoBooks.filter((b) => b.language === 'en').length).toBeGreaterThan(100);
    const keys = demoBooks.map((b) => `${b.title}|${b.author}|${b.language}`.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has a real ISBN-13 checksum wherever an ISBN is given, and none twice', () => {
    const isbns = demoBooks.flatMap((b) => (b.isbn13 ? [b.isbn13] : []));
    expect(isbns.length).toBeGreaterThan(30);
    for (const isbn of isbns) {
      expect(isbn, isbn).toMatch(/^97[89]\d{10}$/);
      expect(isValidIsbn13(isbn), isbn).toBe(true);
    }
    expect(new Set(isbns).size).toBe(isbns.length);
  });

  it('uses the marketplace genres, plausible years and non-empty names', () => {
    for (const b of demoBooks) {
      expect(MARKET_GENRES, b.title).toContain(b.genre);
      expect(['it', 'en']).toContain(b.language);
      expect(b.year, b.title).toBeGreaterThan(1200);
      expect(b.year, b.title).toBeLessThanOrEqual(2025);
      expect(b.title.trim()).toBe(b.title);
      expect(b.author.trim().length, b.title).toBeGreaterThan(1);
    }
  });

  it('gives each demo work a demo book by its author under one of its titles, each work once', () => {
    for (const w of demoWorks) {
      const books = demoBooks.filter(
        (b) => b.author === w.author && (b.title === w.it || b.title === w.en),
      );
      expect(books.length, w.it).toBeGreaterThan(0);
      for (const b of books) expect(b.title).toBe(b.language === 'it' ? w.it : w.en);
    }
    const keys = demoWorks.map((w) => w.it);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
