import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/app';
import { createMember } from '../test/members';
import { createListing } from '../test/listings';

/**
 * A catalogue book with an author list longer than a work's 300 characters can be listed
 * (migration 0057): its work keeps the first 300 characters, and its second copy finds that work.
 */
describe('works: a catalogue book with a long author list', async () => {
  const t = await createTestApp();

  it('is listed, twice, under one work', async () => {
    const seller = await createMember(t);
    const author = Array.from({ length: 40 }, (_, i) => `Autore Numero${i} Contributo`).join(', ');
    expect(author.length).toBeGreaterThan(300);
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, author, authors) values ($1, $2, $3) returning id`,
      ['Atti del convegno', author, [author]],
    );
    // Two copies moved onto that book, as a quick listing of the catalogue's book would be.
    const listed = [await createListing(t, seller), await createListing(t, seller)];
    await t.database.query(`update book_listings set book_id = $1 where id = any($2)`, [
      book.id,
      listed.map((l) => l.id),
    ]);
    const rows = await t.database.query<{ work_id: string | null }>(
      `select work_id from book_listings where id = any($1)`,
      [listed.map((l) => l.id)],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0].work_id).not.toBeNull();
    expect(rows[1].work_id).toBe(rows[0].work_id);
    const [work] = await t.database.query<{ author: string }>(
      `select author from works where id = $1`,
      [rows[0].work_id],
    );
    expect(work.author).toBe(author.slice(0, 300));
  });
});
