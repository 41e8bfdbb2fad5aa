/**
 * The one audience rule (issue 32 item 4, docs/notifications.md#who-may-hear-of-whom): who may
 * hear of whom. A member hears of another (a bell row, a live event, an e-mail line, an alert
 * about their listing) only while both accounts are active and no block stands between them,
 * either way. Every notifier uses it: `notify()` itself when it stores a row, the list, the count
 * and the digest when they read rows, and the batch notifiers (wishers, trade partners, saved
 * searches, watchers) inside the SQL that finds their recipients, so nobody is loaded to be
 * filtered out afterwards.
 */
import type { Database } from '../../db/client';

type Db = Pick<Database, 'query'>;
import { activeMember } from '../moderation/members';
import { blockedBetween } from '../moderation/blocks';

/**
 * SQL: the member in `recipient` may hear of the member in `actor` (SQL expressions, e.g. `$1`,
 * `w.user_id`; `actor` may be null: nobody caused it). The recipient is active; the actor, when
 * there is one, is active and no block stands between the two, either way, unless `acrossBlocks`
 * (an SQL condition, e.g. `n.type = any($2::text[])`) holds: notices of what a block leaves
 * standing between them (a sale under way, decision 0036; types defined with `acrossBlocks`).
 */
export const mayHearSql = (recipient: string, actor: string, acrossBlocks?: string) =>
  `(${activeMember(`${recipient}::text`)} and (${actor}::text is null or (${activeMember(
    `${actor}::text`,
  )} and (${acrossBlocks ? `${acrossBlocks} or ` : ''}not ${blockedBetween(recipient, actor)}))))`;

/** Whether `recipient` may hear of `actor` now (the same rule, for one pair). */
export async function mayHear(
  database: Db,
  recipient: string,
  actor: string | null,
  { acrossBlocks = false }: { acrossBlocks?: boolean } = {},
): Promise<boolean> {
  const rows = await database.query(
    `select 1 where ${mayHearSql('$1', '$2', acrossBlocks ? 'true' : undefined)}`,
    [recipient, actor],
  );
  return rows.length > 0;
}

/**
 * What a block ends at once between `a` and `b`: every notification either has of the other (the
 * bell rows and, with them, what waited for the e-mail digest), but those of the types in
 * `keepTypes` (defined with `acrossBlocks`). The notification service calls it
 * (`forgetBetween`) once the block is committed: a notification stored by a notifier that had
 * not seen the block yet is either deleted here or by the notifier's own check after its insert.
 */
export async function forgetBetween(
  database: Db,
  a: string,
  b: string,
  keepTypes: string[],
): Promise<number> {
  const rows = await database.query(
    `delete from notifications
     where ((recipient_id = $1 and actor_id = $2) or (recipient_id = $2 and actor_id = $1))
       and not (type = any($3::text[]))
     returning id`,
    [a, b, keepTypes],
  );
  return rows.length;
}
