import { isUuid } from '@shared/schemas/common';
import type { ModerationQuery } from './registry';

/**
 * Runs a statement on the row `id` (its `$1`) and tells whether it changed one: what a kind's
 * `hide` and `restore` answer. An id that is no UUID names no row and changes nothing.
 */
export async function changedRow(
  query: ModerationQuery,
  id: string,
  sql: string,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await query(sql, [id])).length > 0;
}

/**
 * The member a row belongs to (a kind's `ownerOf`): `sql` selects it as `owner` from the row
 * `id` (its `$1`); null for no row, no owner, or an id that is no UUID.
 */
export async function ownerOfRow(
  query: ModerationQuery,
  id: string,
  sql: string,
): Promise<string | null> {
  if (!isUuid(id)) return null;
  const [row] = await query<{ owner: string | null }>(sql, [id]);
  return row?.owner ?? null;
}
