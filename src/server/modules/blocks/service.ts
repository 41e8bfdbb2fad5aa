import { BLOCKS_PAGE_SIZE, type BlockedPage, type BlockState } from '@shared/blocks';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { badRequest, notFound } from '../../platform/errors';
import { activeMember } from '../../platform/moderation';
import type { Notifications } from '../../platform/notifications';
import type { Realtime } from '../../platform/realtime';
import { inTransaction } from '../../db/tx';
import { CONNECTION_SUBJECT } from '../connections';
import { avatarSeedOf } from '../profiles';
import { toIso } from '../../db/rows';

export interface BlockServiceDeps {
  database: Database;
  realtime: Realtime;
  notifications: Notifications;
  log: FastifyBaseLogger;
}

/**
 * Blocking (issue 12, part 2). The effects live where they apply (chats, connections, community,
 * listings, library, users), each with the conditions of platform/moderation/blocks.ts; here
 * only the block itself and what it ends at once: a friendship or a pending request between the
 * two, their open offers on each other's listings, and the notifications either has of the
 * other (platform/notifications/audience.ts keeps new ones from reaching across). Blocking is
 * silent: nothing is sent to the blocked member (no notification, no e-mail, no live event) but
 * the one presence update that makes the blocker vanish from their view (no longer online, never
 * seen), what their next fetch of a conversation shows anyway.
 */
export function createBlockService({ database, realtime, notifications, log }: BlockServiceDeps) {
  const memberNotFound = () => notFound('blocks.errors.memberNotFound');

  /**
   * Presence stops (or starts again) between the two at once, both ways: hidden, each member is
   * offline and never seen to the other; shown again, as the other really is.
   */
  async function showPresence(a: string, b: string, shown: boolean) {
    try {
      if (shown) {
        const [[{ blocked }], online, seen] = await Promise.all([
          database.query<{ blocked: boolean }>(
            `select exists (select 1 from blocks where (blocker_id = $1 and blocked_id = $2)
               or (blocker_id = $2 and blocked_id = $1)) as blocked`,
            [a, b],
          ),
          realtime.onlineAmong([a, b]),
          database.query<{ id: string; last_seen_at: Date | null }>(
            'select id, last_seen_at from users where id = any($1::text[])',
            [[a, b]],
          ),
        ]);
        if (blocked) return; // the other member still blocks this one
        for (const [to, about] of [
          [b, a],
          [a, b],
        ] as const) {
          const at = seen.find((r) => r.id === about)?.last_seen_at ?? null;
          await realtime.toUsers([to], {
            type: 'presence',
            userId: about,
            online: online.has(about),
            lastSeenAt: at === null ? null : toIso(at),
          });
        }
      } else {
        await realtime.toUsers([b], {
          type: 'presence',
          userId: a,
          online: false,
          lastSeenAt: null,
        });
        await realtime.toUsers([a], {
          type: 'presence',
          userId: b,
          online: false,
          lastSeenAt: null,
        });
      }
    } catch (err) {
      log.warn({ err }, 'presence after a block not published');
    }
  }

  return {
    async state(me: string, userId: string): Promise<BlockState> {
      const [row] = await database.query(
        'select 1 from blocks where blocker_id = $1 and blocked_id = $2',
        [me, userId],
      );
      return { userId, blocked: Boolean(row) };
    },

    /** Blocks `userId`; blocking again changes nothing (the first date stays). */
    async block(me: string, userId: string): Promise<BlockState> {
      if (userId === me) throw badRequest('blocks.errors.self', { userId: 'blocks.errors.self' });
      const [member] = await database.query(
        `select 1 from users where id = $1 and ${activeMember('id')}`,
        [userId],
      );
      if (!member) throw memberNotFound();
      const closed = await inTransaction(database, async (q) => {
        await q(
          `insert into blocks (blocker_id, blocked_id) values ($1, $2) on conflict do nothing`,
          [me, userId],
        );
        // Open offers between the two close: no one could answer them any more. Mine on their
        // listings are withdrawn, theirs on mine declined, as if each had done it by hand.
        const offers = await q<{ room_id: string; message_id: string }>(
          `with closed as (
             update offers set status = case when buyer_id = $1 then 'withdrawn' else 'declined' end,
               answered_at = now()
             where status = 'pending'
               and ((buyer_id = $1 and seller_id = $2) or (buyer_id = $2 and seller_id = $1))
             returning id)
           select m.room_id::text as room_id, m.id::text as message_id
           from chat_messages m join closed c on m.offer_id = c.id`,
          [me, userId],
        );
        const connections = await q<{ id: string }>(
          `delete from connections
           where least(requester_id, addressee_id) = least($1::text, $2::text)
             and greatest(requester_id, addressee_id) = greatest($1::text, $2::text)
           returning id::text as id`,
          [me, userId],
        );
        return { connections, offers };
      });
      // What either was told of the other goes, pending digest lines too (after the commit: a
      // notifier that had not seen the block deletes its own row, platform/notifications).
      await notifications.forgetBetween(me, userId);
      // Only the blocker's own pages refresh: the blocked member is not told.
      for (const { room_id: roomId, message_id: messageId } of closed.offers)
        await realtime
          .toUsers([me], { type: 'chat.message.updated', roomId, messageId })
          .catch((err: unknown) => log.warn({ err }, 'closed offer not announced'));
      const ended = closed.connections;
      if (ended.length > 0) {
        const ids = ended.map((r) => r.id);
        try {
          await notifications.removeForSubject(CONNECTION_SUBJECT, ids);
          // Only the blocker's own pages refresh: the blocked member is not told.
          for (const connectionId of ids)
            await realtime.toUsers([me], { type: 'connection.changed', connectionId });
        } catch (err) {
          log.warn({ err }, 'ended connection not announced');
        }
      }
      await showPresence(me, userId, false);
      return { userId, blocked: true };
    },

    /** Ends my block of `userId` (nothing to do when there is none). */
    async unblock(me: string, userId: string): Promise<BlockState> {
      await database.query('delete from blocks where blocker_id = $1 and blocked_id = $2', [
        me,
        userId,
      ]);
      await showPresence(me, userId, true);
      return { userId, blocked: false };
    },

    /** The members I blocked, most recent first (suspended ones are left out, like everywhere). */
    async list(me: string, page: number): Promise<BlockedPage> {
      const pageSize = BLOCKS_PAGE_SIZE;
      const where = `b.blocker_id = $1 and ${activeMember('b.blocked_id')}`;
      const [[count], rows] = await Promise.all([
        database.query<{ total: number }>(
          `select count(*)::int as total from blocks b where ${where}`,
          [me],
        ),
        database.query<{
          id: string;
          display_name: string;
          username: string | null;
          avatar_url: string | null;
          created_at: Date;
        }>(
          `select u.id, u.display_name, u.username::text as username, u.avatar_url, b.created_at
           from blocks b join users u on u.id = b.blocked_id
           where ${where}
           order by b.created_at desc, b.blocked_id limit $2 offset $3`,
          [me, pageSize, (page - 1) * pageSize],
        ),
      ]);
      return {
        items: rows.map((r) => ({
          member: {
            id: r.id,
            displayName: r.display_name,
            username: r.username,
            avatarUrl: r.avatar_url,
            avatarSeed: avatarSeedOf(r.id),
          },
          blockedAt: toIso(r.created_at),
        })),
        total: count.total,
        page,
        pageSize,
      };
    },
  };
}
