import { FIXED_SHELVES, MARKET_GENRES, type ShelfKey } from '@shared/marketplaceConstants';
import type { TFunction } from '../../lib/translator';

/** A shelf's title: its own name, or its genre's for a `genre:<genre>` shelf. */
export function shelfTitle(t: TFunction, key: ShelfKey): string {
  const fixed = FIXED_SHELVES.find((name) => name === key);
  if (fixed) return t(`shelves.names.${fixed}`);
  const genre = MARKET_GENRES.find((g) => key === `genre:${g}`);
  return genre ? t(`genres.${genre}`) : key;
}
