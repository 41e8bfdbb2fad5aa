import type {
  ConnectionMember,
  ConnectionRequest,
  ConnectionState,
  Friend,
  FriendSearchResult,
} from '@shared/connections';
import type { Database } from '../../db/client';
import { avatarSeedOf } from '../profiles';
import { activeMember, notBlocked } from '../../platform/moderation';
import { toIso } from '../../db/rows';

export interface ConnectionRow {
  id: string;
  requester_id: string;
  addressee_id: string;
  status: 'pending' | 'accepted';
  created_at: Date;
  updated_at: Date;
}

interface MemberColumns {
  member_id: string;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
  member_created_at: Date;
}

/** The public bits of the member `u`. */
const MEMBER_COLUMNS = `u.id as member_id, u.display_name, u.username::text as username,
  u.avatar_url, u.created_at as member_created_at`;

function toMember(row: MemberColumns): ConnectionMember {
  return {
    id: row.member_id,
    displayName: row.display_name,
    username: row.username,
    avatarUrl: row.avatar_url,
    avatarSeed: avatarSeedOf(row.member_id),
    memberSince: toIso(row.member_created_at),
  };
}

export const CONNECTION_COLUMNS = 'id, requester_id, addressee_id, status, created_at, updated_at';

export async function findConnection(database: Database, id: string) {
  const [row] = await database.query<ConnectionRow>(
    `select ${CONNECTION_COLUMNS} from connections where id = $1`,
    [id],
  );
  return row ?? null;
}

export async function findConnectionBetween(database: Database, a: string, b: string) {
  const [row] = await database.query<ConnectionRow>(
    `select ${CONNECTION_COLUMNS} from connections
     where least(requester_id, addressee_id) = least($1::text, $2::text)
       and greatest(requester_id, addressee_id) = greatest($1::text, $2::text)`,
    [a, b],
  );
  return row ?? null;
}

/** How `me` stands with the other member of a connection row (or with nobody). */
export function stateOf(me: string, row: ConnectionRow | null): ConnectionState {
  if (!row) return 'none';
  if (row.status === 'accepted') return 'accepted';
  return row.requester_id === me ? 'pending-outgoing' : 'pending-incoming';
}

/**
 * Counts that make up a friend's interactions, per friend `u` of member $1: completed
 * transactions between the two, and likes each gave the other's published posts.
 */
const INTERACTION_JOINS = `
  left join lateral (
    select count(*)::int as n from transactions t
    where t.status = 'completed'
      and ((t.buyer_id = $1 and t.seller_id = u.id) or (t.buyer_id = u.id and t.seller_id = $1))
  ) exchanged on true
  left join lateral (
    select (
      select count(*) from post_reactions r join community_posts p on p.id = r.post_id
      where r.user_id = $1 and p.user_id = u.id and p.status = 'published'
    ) + (
      select count(*) from post_reactions r join community_posts p on p.id = r.post_id
      where r.user_id = u.id and p.user_id = $1 and p.status = 'published'
    ) as n
  ) reacted on true`;
const REACTIONS = 'reacted.n';

/** Accepted friends of `me`, most interactions first, then the newest friendships. */
export async function listFriends(
  database: Database,
  me: string,
  page: number,
  pageSize: number,
): Promise<{ items: Friend[]; total: number }> {
  const where = `c.status = 'accepted' and (c.requester_id = $1 or c.addressee_id = $1)
    and ${activeMember('c.requester_id')} and ${activeMember('c.addressee_id')}`;
  const [[count], rows] = await Promise.all([
    database.query<{ total: number }>(
      `select count(*)::int as total from connections c where ${where}`,
      [me],
    ),
    database.query<
      MemberColumns & {
        connection_id: string;
        friends_since: Date;
        books_exchanged: number;
        reactions: number;
      }
    >(
      `select c.id as connection_id, c.updated_at as friends_since, ${MEMBER_COLUMNS},
         exchanged.n as books_exchanged, ${REACTIONS}::int as reactions
       from connections c
       join users u on u.id = case when c.requester_id = $1 then c.addressee_id else c.requester_id end
       ${INTERACTION_JOINS}
       where ${where}
       order by exchanged.n + ${REACTIONS} desc, c.updated_at desc, c.id
       limit $2 offset $3`,
      [me, pageSize, (page - 1) * pageSize],
    ),
  ]);
  return {
    total: count.total,
    items: rows.map((r) => ({
      connectionId: r.connection_id,
      member: toMember(r),
      friendsSince: toIso(r.friends_since),
      booksExchanged: r.books_exchanged,
      reactions: r.reactions,
      interactions: r.books_exchanged + r.reactions,
    })),
  };
}

/** Pending requests sent to `me` (incoming) or by `me` (outgoing), newest first. */
export async function listRequests(
  database: Database,
  me: string,
  direction: 'incoming' | 'outgoing',
  page: number,
  pageSize: number,
): Promise<{ items: ConnectionRequest[]; total: number }> {
  const [mine, theirs] =
    direction === 'incoming' ? ['addressee_id', 'requester_id'] : ['requester_id', 'addressee_id'];
  const where = `c.status = 'pending' and c.${mine} = $1 and ${activeMember(`c.${theirs}`)}`;
  const [[count], rows] = await Promise.all([
    database.query<{ total: number }>(
      `select count(*)::int as total from connections c where ${where}`,
      [me],
    ),
    database.query<MemberColumns & { connection_id: string; created_at: Date }>(
      `select c.id as connection_id, c.created_at, ${MEMBER_COLUMNS}
       from connections c join users u on u.id = c.${theirs}
       where ${where}
       order by c.created_at desc, c.id
       limit $2 offset $3`,
      [me, pageSize, (page - 1) * pageSize],
    ),
  ]);
  return {
    total: count.total,
    items: rows.map((r) => ({
      connectionId: r.connection_id,
      member: toMember(r),
      sentAt: toIso(r.created_at),
    })),
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Members whose username or display name contains `q` (case and accents ignored), except `me`:
 * exact username first, then usernames and names that start with it, then the rest by name.
 */
export async function searchMembers(
  database: Database,
  me: string,
  q: string,
  page: number,
  pageSize: number,
): Promise<{ items: FriendSearchResult[]; total: number }> {
  const needle = q.toLowerCase();
  const params = [me, `%${escapeLike(needle)}%`, needle, `${escapeLike(needle)}%`];
  const where = `u.id <> $1 and ${activeMember('u.id')} and ${notBlocked('$1', 'u.id')}
    and (lower(u.username::text) like $2 or lower(immutable_unaccent(u.display_name)) like lower(immutable_unaccent($2)))`;
  const [[count], rows] = await Promise.all([
    database.query<{ total: number }>(
      `select count(*)::int as total from users u where ${where}`,
      params.slice(0, 2),
    ),
    database.query<MemberColumns & ConnectionRowOrNull>(
      `select ${MEMBER_COLUMNS}, c.id, c.requester_id, c.addressee_id, c.status, c.created_at, c.updated_at
       from users u
       left join connections c
         on least(c.requester_id, c.addressee_id) = least($1::text, u.id)
        and greatest(c.requester_id, c.addressee_id) = greatest($1::text, u.id)
       where ${where}
       order by (lower(u.username::text) = $3) desc,
         (lower(u.username::text) like $4 or lower(immutable_unaccent(u.display_name)) like lower(immutable_unaccent($4))) desc,
         lower(u.display_name), u.id
       limit $5 offset $6`,
      [...params, pageSize, (page - 1) * pageSize],
    ),
  ]);
  return {
    total: count.total,
    items: rows.map((r) => {
      const connection = r.id ? (r as ConnectionRow) : null;
      return {
        member: toMember(r),
        state: stateOf(me, connection),
        connectionId: connection?.id ?? null,
      };
    }),
  };
}

type ConnectionRowOrNull = { [K in keyof ConnectionRow]: ConnectionRow[K] | null };
