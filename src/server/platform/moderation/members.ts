/**
 * The one condition that makes suspended (and, later, deleted) members disappear everywhere at
 * once: every query that lists members or what they made adds it to its WHERE clause.
 *
 * `not in` a small set (users_inactive_idx, migration 0016) is a hashed subplan evaluated once
 * per query: the plans of the library's index walks keep their shape, each row costs one probe.
 */
export const INACTIVE_MEMBERS = `select su.id from users su where su.account_status <> 'active'`;

/** SQL: the member whose id is in `column` has an active account. */
export const activeMember = (column: string) => `${column} not in (${INACTIVE_MEMBERS})`;

/**
 * SQL: the listing `alias` is visible to its readers: not hidden by a moderator, its seller
 * active. The library's totals (listing_counts) count by the same rule (migration 0016).
 */
export const visibleListing = (alias = 'l') =>
  `${alias}.hidden_at is null and ${activeMember(`${alias}.user_id`)}`;

/**
 * SQL: the listing `alias` is in the library and its shelves: visible to its readers, its seller
 * not on holiday (member_holidays, migration 0038; the listing_counts totals follow the same rule).
 * Its book page still shows it, saying when the seller is back.
 */
export const libraryListing = (alias = 'l') =>
  `${visibleListing(alias)} and ${alias}.user_id not in (select mh.user_id from member_holidays mh)`;

/** SQL: the member whose id is in `column` is suspended by a moderator (not deleted). */
export const suspendedMember = (column: string) =>
  `${column} in (select ss.id from users ss where ss.account_status = 'suspended')`;

/** SQL: the member whose id is in `column` is suspended (or deleted). */
export const inactiveMember = (column: string) => `${column} in (${INACTIVE_MEMBERS})`;

/**
 * SQL: the chat room `alias` shows in its members' lists: a group, or a direct conversation
 * whose other member is not suspended. A conversation with a member who deleted their account
 * stays, shown with "Deleted member": its messages are the other member's history too.
 */
export const listedRoom = (alias = 'r') =>
  `(${alias}.is_group or not exists (select 1 from chat_participants x
     where x.room_id = ${alias}.id and ${suspendedMember('x.user_id')}))`;

/** SQL: the room `alias` has a member who deleted their account (a direct one takes no message). */
export const roomWithDeletedMember = (roomId: string) =>
  `exists (select 1 from chat_participants dx join users du on du.id = dx.user_id
     where dx.room_id = ${roomId} and du.account_status = 'deleted')`;
