import { RELATED_SIZE, type RelatedListings } from '@shared/marketplace';
import type { Database } from '../../db/client';
import { CARD_COLUMNS, CARD_JOINS, isUuid, toCard, type CardRow } from '../listings/queries';
import { libraryListing, notBlocked, visibleListing } from '../../platform/moderation';

/**
 * The book page's two small lists beside listing `id`: other available copies of the same
 * catalogue book (any seller but this one's listing), and the seller's other available listings,
 * newest first, RELATED_SIZE each, as readers may see them (not hidden, seller active; with
 * `apartFrom`, a signed-in viewer with blocks, nothing of the members a block stands between).
 * Each list is a top-N read of a partial index (migration 0028). null when the listing itself is
 * not visible to this viewer (missing, hidden, or a block between the viewer and the seller).
 */
export async function findRelatedListings(
  database: Database,
  id: string,
  apartFrom?: string,
): Promise<RelatedListings | null> {
  if (!isUuid(id)) return null;
  const selfParams: unknown[] = [id];
  const [self] = await database.query<{ book_id: string; user_id: string }>(
    `select l.book_id, l.user_id from book_listings l where l.id = $1 and ${visibleListing('l')}${
      apartFrom ? ` and ${notBlocked(`$${selfParams.push(apartFrom)}`, 'l.user_id')}` : ''
    }`,
    selfParams,
  );
  if (!self) return null;
  const list = (column: 'book_id' | 'user_id', value: string) => {
    const params: unknown[] = [id, value, RELATED_SIZE];
    const apart = apartFrom ? ` and ${notBlocked(`$${params.push(apartFrom)}`, 'l.user_id')}` : '';
    return database.query<CardRow>(
      `select ${CARD_COLUMNS} from book_listings l ${CARD_JOINS}
       where l.${column} = $2 and l.status = 'available' and l.id <> $1
         and ${libraryListing('l')}${apart}
       order by l.created_at desc, l.id desc limit $3`,
      params,
    );
  };
  const [copies, seller] = await Promise.all([
    list('book_id', self.book_id),
    list('user_id', self.user_id),
  ]);
  return { otherCopies: copies.map(toCard), moreFromSeller: seller.map(toCard) };
}
