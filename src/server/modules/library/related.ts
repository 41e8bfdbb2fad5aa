import { RELATED_SIZE, type RelatedListings } from '@shared/marketplace';
import type { Database } from '../../db/client';
import { sql } from '../../db/sql';
import { isUuid } from '@shared/schemas/common';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings';
import { libraryListing, notBlocked, visibleListing } from '../../platform/moderation';
import { workSummary } from './works/queries';

/**
 * The book page's two small lists beside listing `id`: other available copies of the same work
 * (any edition or language, migration 0053; of the same catalogue book when it has no work), and
 * the seller's other available listings, newest first, RELATED_SIZE each, as readers may see
 * them (not hidden, seller active; with `apartFrom`, a signed-in viewer with blocks, nothing of
 * the members a block stands between). Each list is a top-N read of a partial index (migrations
 * 0028, 0053). With them, the work's other copies counted for "3 other copies from 6,00 €"
 * (`viewer`: the signed-in member, null for visitors). null when the listing itself is not
 * visible to this viewer (missing, hidden, or a block between the viewer and the seller).
 */
export async function findRelatedListings(
  database: Database,
  id: string,
  apartFrom?: string,
  viewer: string | null = apartFrom ?? null,
): Promise<RelatedListings | null> {
  if (!isUuid(id)) return null;
  const apart = apartFrom ? sql` and ${notBlocked(sql`${apartFrom}`, 'l.user_id')}` : sql.empty;
  const [self] = await database.query<{ book_id: string; work_id: string | null; user_id: string }>(
    sql`select l.book_id, l.work_id, l.user_id from book_listings l
        where l.id = ${id} and ${sql.raw(visibleListing('l'))}${apart}`,
  );
  if (!self) return null;
  const list = (column: 'book_id' | 'work_id' | 'user_id', value: string) =>
    database.query<CardRow>(
      sql`select ${sql.raw(CARD_COLUMNS)} from book_listings l ${sql.raw(CARD_JOINS)}
          where l.${sql.raw(column)} = ${value} and l.status = 'available' and l.id <> ${id}
            and ${sql.raw(libraryListing('l'))}${apart}
          order by l.created_at desc, l.id desc limit ${RELATED_SIZE}`,
    );
  const [copies, seller, work] = await Promise.all([
    self.work_id ? list('work_id', self.work_id) : list('book_id', self.book_id),
    list('user_id', self.user_id),
    workSummary(database, id, viewer),
  ]);
  return { otherCopies: copies.map(toCard), moreFromSeller: seller.map(toCard), work };
}
