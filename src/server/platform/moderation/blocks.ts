/**
 * Blocking (issue 12, part 2): the SQL that keeps two members apart once either blocked the
 * other. Every module uses these conditions rather than writing its own, beside `activeMember`.
 * A block works both ways: A blocked B hides A from B and B from A, and refuses what either
 * would do to the other, until A unblocks.
 */

import { sqlText, type Sql } from '../../db/sql';
import type { Query } from '../../db/tx';

/**
 * SQL: the ids of the members a block stands between and the member in `viewer` (an SQL
 * expression, e.g. `$1`), either way. Evaluated once per query (an initplan on the two indexes
 * of `blocks`); empty for a visitor (null).
 */
export const blockedMembersOf = <V extends string | Sql>(viewer: V) =>
  sqlText`array(select bk.blocked_id from blocks bk where bk.blocker_id = ${viewer}::text
     union all select bk.blocker_id from blocks bk where bk.blocked_id = ${viewer}::text)`;

/**
 * SQL: no block stands between the member in `viewer` (an SQL expression, e.g. `$1`, may be null
 * for visitors) and the member whose id is in `column`. One array built per query, one
 * comparison per row: the plans of the queries it joins keep their shape. Queries that must not
 * change at all for visitors and members without blocks (the library) add it only for those who
 * have some (`hasBlocks`).
 */
export const notBlocked = <V extends string | Sql>(viewer: V, column: string) =>
  sqlText`${column} <> all(${blockedMembersOf(viewer)})`;

/** SQL: a block stands between the members in `a` and `b`, either way. */
export const blockedBetween = <A extends string | Sql, B extends string | Sql>(a: A, b: B) =>
  sqlText`exists (select 1 from blocks bk where (bk.blocker_id = ${a}::text and bk.blocked_id = ${b}::text)
     or (bk.blocker_id = ${b}::text and bk.blocked_id = ${a}::text))`;

/** True when a block stands between the two members, either way. */
export async function isBlockedBetween(query: Query, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  const rows = await query(`select 1 where ${blockedBetween('$1', '$2')}`, [a, b]);
  return rows.length > 0;
}

/** True when the member blocked someone or was blocked by someone (two index probes). */
export async function hasBlocks(query: Query, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  const rows = await query(
    `select 1 where exists (select 1 from blocks where blocker_id = $1)
       or exists (select 1 from blocks where blocked_id = $1)`,
    [userId],
  );
  return rows.length > 0;
}
