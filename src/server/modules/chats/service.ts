import type { FastifyBaseLogger } from 'fastify';
import {
  CHAT_CATCH_UP_LIMIT,
  CHAT_PAGE_SIZE,
  ROOMS_PAGE_SIZE,
  type ChatMessage,
  type ChatRoom,
  type GroupRoomInput,
} from '@shared/schemas/chats';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import type { Realtime } from '../../platform/realtime';
import { roomTopic } from '@shared/realtimeEvents';
import type { Notifications } from '../../platform/notifications';
import { offerNotices, SUBJECT as NOTIFICATION_SUBJECT } from './notifications';
import { createListingService } from '../listings/service';
import { listingNotFound } from '../listings/service';
import { createMissedMessageNotifier } from './email';
import { createPublisher, messageEvent } from './events';
import {
  directKey,
  findListingFacts,
  findMessage,
  findMessageWithAudience,
  findRoomFor,
  isParticipant,
  isUuid,
  listRooms,
  pageMessages,
  participantIds,
  queryOf,
  unreadTotal,
} from './queries';
import { inTransaction, sqlState, transactionalDatabase, type Query } from '../../db/tx';
import { roomWithDeletedMember } from '../../platform/moderation/members';
import { blockedBetween, isBlockedBetween } from '../../platform/moderation';

export interface ChatServiceDeps {
  database: Database;
  realtime: Realtime;
  mailer: Mailer;
  /** Offers made and answered tell the other member (platform/notifications). */
  notifications?: Notifications;
  config: Pick<Config, 'publicUrl'>;
  now: () => Date;
  log: FastifyBaseLogger;
}

export type OfferAction = 'accept' | 'decline' | 'withdraw' | 'complete';

/** A member who is not in a room, and a room that does not exist, get the same answer. */
const accessDenied = () => forbidden();
const listingUnavailable = () => conflict('chatApi.errors.listingUnavailable');

/** Creates the pair's one direct room, or finds it; both members are (again) participants. */
async function directRoom(
  q: Query,
  me: string,
  other: string,
  listingId: string | null,
): Promise<{ roomId: string; changed: boolean }> {
  const key = directKey(me, other);
  const [created] = await q<{ id: string }>(
    `insert into chat_rooms (is_group, created_by, direct_key, listing_id)
     values (false, $1, $2, $3) on conflict (direct_key) do nothing returning id`,
    [me, key, listingId],
  );
  const roomId =
    created?.id ??
    (await q<{ id: string }>('select id from chat_rooms where direct_key = $1', [key]))[0].id;
  const joined = await q(
    `insert into chat_participants (room_id, user_id) values ($1, $2), ($1, $3)
     on conflict do nothing returning user_id`,
    [roomId, me, other],
  );
  return { roomId, changed: created !== undefined || joined.length > 0 };
}

/**
 * SQL: room $1 is a direct conversation whose other member and sender $2 are kept apart by a
 * block (either way). Group conversations are not affected (docs/decisions.md).
 */
const BLOCKED_DIRECT_ROOM = `exists (select 1 from chat_rooms br
  join chat_participants bp on bp.room_id = br.id and bp.user_id <> $2
  where br.id = $1 and not br.is_group and ${blockedBetween('$2', 'bp.user_id')})`;

/** A neutral refusal: it does not say that a block is the reason. */
const cannotMessage = () => forbidden('blocks.errors.cannotMessage');

/**
 * Inserts a message from a participant and moves the room up the list; null if not a participant
 * or if a block stands between the two members of a direct conversation.
 */
async function insertMessage(
  q: Query,
  m: {
    roomId: string;
    senderId: string;
    type?: 'text' | 'listing' | 'offer' | 'system';
    content?: string;
    listingId?: string | null;
    offerId?: string | null;
  },
): Promise<string | null> {
  const [row] = await q<{ id: string }>(
    `with ins as (
       insert into chat_messages (room_id, sender_id, type, content, listing_id, offer_id)
       select $1, $2, $3, $4, $5, $6
       where exists (select 1 from chat_participants where room_id = $1 and user_id = $2)
         -- Nobody reads a direct conversation whose other member deleted their account.
         and not (exists (select 1 from chat_rooms dr where dr.id = $1 and not dr.is_group)
           and ${roomWithDeletedMember('$1')})
         and not ${BLOCKED_DIRECT_ROOM}
       returning id, created_at),
     bump as (
       update chat_rooms r set updated_at = greatest(r.updated_at, ins.created_at)
       from ins where r.id = $1 returning r.id)
     select ins.id from ins`,
    [
      m.roomId,
      m.senderId,
      m.type ?? 'text',
      m.content ?? '',
      m.listingId ?? null,
      m.offerId ?? null,
    ],
  );
  return row?.id ?? null;
}

export function createChatService(deps: ChatServiceDeps) {
  const { database, realtime, log } = deps;
  const query = queryOf(database);
  const publish = createPublisher(realtime, log);
  const onlineAmong = (ids: string[]) => realtime.onlineAmong(ids);
  const notifyMissed = createMissedMessageNotifier({
    query,
    realtime,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    now: deps.now,
    log,
  });
  /** Pending e-mail work, so tests (and a graceful shutdown) can wait for it. */
  const background = new Set<Promise<void>>();

  function afterCommit(roomId: string, message: ChatMessage) {
    const job = notifyMissed(roomId, message)
      .catch((err) => log.error({ err, roomId }, 'missed-message e-mail failed'))
      .finally(() => background.delete(job));
    background.add(job);
  }

  /** Unexpected failures answer the spec's text instead of a bare 500 message. */
  async function orFail<T>(key: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError) throw err;
      log.error({ err }, key);
      throw new AppError(500, 'internal', key);
    }
  }

  async function requireParticipant(roomId: string, userId: string) {
    if (!(await isParticipant(query, roomId, userId))) throw accessDenied();
  }

  async function roomFor(roomId: string, userId: string): Promise<ChatRoom> {
    const room = await findRoomFor(query, roomId, userId, onlineAmong);
    if (!room) throw accessDenied();
    return room;
  }

  async function publishMessage(roomId: string, messageId: string): Promise<ChatMessage> {
    const { message, audience } = (await findMessageWithAudience(query, messageId))!;
    await publish(audience, messageEvent(roomId, message));
    return message;
  }

  async function publishUpdated(roomId: string, messageId: string) {
    await publish(await participantIds(query, roomId), {
      type: 'chat.message.updated',
      roomId,
      messageId,
    });
  }

  return {
    background,

    async rooms(userId: string, page = 1, pageSize = ROOMS_PAGE_SIZE) {
      const { items, total } = await listRooms(query, userId, { page, pageSize }, onlineAmong);
      return { items, page, pageSize, total };
    },

    unread: (userId: string) => unreadTotal(query, userId),

    room: roomFor,

    async direct(userId: string, otherId: string): Promise<{ room: ChatRoom; created: boolean }> {
      if (otherId === userId)
        throw badRequest('chatApi.errors.selfChat', { userId: 'chatApi.errors.selfChat' });
      const [other] = await query('select id from users where id = $1', [otherId]);
      if (!other) throw notFound('chatApi.errors.userNotFound');
      if (await isBlockedBetween(query, userId, otherId)) throw cannotMessage();
      const { roomId, changed } = await orFail('chatApi.errors.startFailed', () =>
        inTransaction(database, (q) => directRoom(q, userId, otherId, null)),
      );
      if (changed) await publish([userId, otherId], { type: 'chat.room', roomId });
      return { room: await roomFor(roomId, userId), created: changed };
    },

    async createGroup(userId: string, input: GroupRoomInput): Promise<ChatRoom> {
      const others = [...new Set(input.participantIds.map((id) => id.trim()))].filter(
        (id) => id !== userId,
      );
      const field = (key: string) => badRequest(key, { participantIds: key });
      if (others.length < 2) throw field('chatApi.validation.groupTooFew');
      const known = await query<{ id: string }>('select id from users where id = any($1::text[])', [
        others,
      ]);
      if (known.length !== others.length) throw field('chatApi.errors.userNotFound');
      const friends = await query<{ id: string }>(
        `select case when requester_id = $1 then addressee_id else requester_id end as id
         from connections where status = 'accepted'
           and ((requester_id = $1 and addressee_id = any($2::text[]))
             or (addressee_id = $1 and requester_id = any($2::text[])))`,
        [userId, others],
      );
      const friendIds = new Set(friends.map((f) => f.id));
      if (others.some((id) => !friendIds.has(id))) throw field('chatApi.errors.friendsOnly');
      const roomId = await orFail('chatApi.errors.createFailed', () =>
        inTransaction(database, async (q) => {
          const [room] = await q<{ id: string }>(
            `insert into chat_rooms (name, description, is_group, created_by)
             values ($1, $2, true, $3) returning id`,
            [input.name.trim(), input.description?.trim() || null, userId],
          );
          await q(
            `insert into chat_participants (room_id, user_id)
             select $1, unnest($2::text[]) on conflict do nothing`,
            [room.id, [userId, ...others]],
          );
          return room.id;
        }),
      );
      await publish([userId, ...others], { type: 'chat.room', roomId });
      return roomFor(roomId, userId);
    },

    async leave(userId: string, roomId: string): Promise<void> {
      if (!isUuid(roomId)) throw accessDenied();
      const result = await inTransaction(database, async (q) => {
        const left = await q(
          'delete from chat_participants where room_id = $1 and user_id = $2 returning user_id',
          [roomId, userId],
        );
        if (left.length === 0) return null;
        const remaining = await participantIds(q, roomId);
        if (remaining.length === 0) {
          await q('delete from chat_rooms where id = $1', [roomId]);
          return { remaining, messageId: null, deleted: true };
        }
        // "X left": a system message whose sender is the member who left (content is a code).
        const [row] = await q<{ id: string }>(
          `with ins as (insert into chat_messages (room_id, sender_id, type, content)
             values ($1, $2, 'system', 'left') returning id, created_at),
           bump as (update chat_rooms r set updated_at = ins.created_at from ins
             where r.id = $1 returning r.id)
           select id from ins`,
          [roomId, userId],
        );
        return { remaining, messageId: row.id, deleted: false };
      });
      if (!result) throw accessDenied();
      if (result.deleted) await deps.notifications?.removeForSubject(NOTIFICATION_SUBJECT, roomId);
      // A subscription is authorised once, when made: end it, or typing would still reach them.
      await realtime
        .leaveTopic?.([userId], roomTopic(roomId))
        .catch((err) => log.warn({ err }, 'room subscription not ended'));
      await publish([userId, ...result.remaining], { type: 'chat.room', roomId });
      if (result.messageId) {
        const message = (await findMessage(query, result.messageId))!;
        await publish(result.remaining, messageEvent(roomId, message));
      }
    },

    async messages(
      userId: string,
      roomId: string,
      opts: { before?: string; after?: string; limit?: number },
    ) {
      await requireParticipant(roomId, userId);
      if (opts.after !== undefined)
        return pageMessages(query, roomId, { after: opts.after, limit: CHAT_CATCH_UP_LIMIT });
      return pageMessages(query, roomId, {
        before: opts.before,
        limit: opts.limit ?? CHAT_PAGE_SIZE,
      });
    },

    async post(userId: string, roomId: string, content: string): Promise<ChatMessage> {
      if (!isUuid(roomId)) throw accessDenied();
      const id = await orFail('chatApi.errors.sendFailed', () =>
        insertMessage(query, { roomId, senderId: userId, content }),
      );
      if (!id)
        throw (await isParticipant(query, roomId, userId)) ? cannotMessage() : accessDenied();
      const message = await publishMessage(roomId, id);
      afterCommit(roomId, message);
      return message;
    },

    async edit(
      userId: string,
      roomId: string,
      messageId: string,
      content: string,
    ): Promise<ChatMessage> {
      await requireParticipant(roomId, userId);
      const updated = isUuid(messageId)
        ? await query(
            `update chat_messages set content = $4, edited_at = clock_timestamp()
             where id = $3 and room_id = $1 and sender_id = $2 and type = 'text'
               and deleted_at is null returning id`,
            [roomId, userId, messageId, content],
          )
        : [];
      if (updated.length === 0) await explainUnchanged(roomId, userId, messageId);
      await publishUpdated(roomId, messageId);
      return (await findMessage(query, messageId))!;
    },

    async remove(userId: string, roomId: string, messageId: string): Promise<void> {
      await requireParticipant(roomId, userId);
      const deleted = isUuid(messageId)
        ? await query(
            `update chat_messages set content = '', deleted_at = clock_timestamp()
             where id = $3 and room_id = $1 and sender_id = $2 and type in ('text', 'listing')
               and deleted_at is null returning id`,
            [roomId, userId, messageId],
          )
        : [];
      if (deleted.length === 0) await explainUnchanged(roomId, userId, messageId);
      await publishUpdated(roomId, messageId);
    },

    async markRead(userId: string, roomId: string): Promise<void> {
      if (!isUuid(roomId)) throw accessDenied();
      // Up to the newest message there is (not "now"): one committed a moment later stays unread.
      const [row] = await query<{ last_read_at: Date | string }>(
        `update chat_participants p set last_read_at = greatest(p.last_read_at,
           coalesce((select max(m.created_at) from chat_messages m where m.room_id = p.room_id),
             p.last_read_at))
         where p.room_id = $1 and p.user_id = $2 returning p.last_read_at`,
        [roomId, userId],
      );
      if (!row) throw accessDenied();
      await publish(await participantIds(query, roomId), {
        type: 'chat.read',
        roomId,
        userId,
        at: new Date(row.last_read_at).toISOString(),
      });
      // The contract also refreshes the reader's own other tabs with a room event.
      await publish([userId], { type: 'chat.room', roomId });
    },

    async contact(
      userId: string,
      listingId: string,
      content: string,
    ): Promise<{ roomId: string; message: ChatMessage }> {
      const listing = await findListingFacts(query, listingId);
      // A block hides the two members' listings from each other: as absent as a missing one.
      if (!listing || (await isBlockedBetween(query, userId, listing.seller_id)))
        throw listingNotFound();
      if (listing.seller_id === userId)
        throw badRequest('chatApi.errors.ownListing', { listingId: 'chatApi.errors.ownListing' });
      if (listing.status !== 'available') throw listingUnavailable();
      const sellerId = listing.seller_id;
      const result = await orFail('chatApi.errors.startFailed', () =>
        inTransaction(database, async (q) => {
          const { roomId, changed } = await directRoom(q, userId, sellerId, listing.id);
          const cardId = await insertMessage(q, {
            roomId,
            senderId: userId,
            type: 'listing',
            listingId: listing.id,
          });
          const textId = await insertMessage(q, { roomId, senderId: userId, content });
          return { roomId, changed, cardId: cardId!, textId: textId! };
        }),
      );
      const { roomId } = result;
      if (result.changed) await publish([userId, sellerId], { type: 'chat.room', roomId });
      await publishMessage(roomId, result.cardId);
      const message = await publishMessage(roomId, result.textId);
      afterCommit(roomId, message);
      return { roomId, message };
    },

    async makeOffer(
      userId: string,
      roomId: string,
      input: { listingId: string; amount: number },
    ): Promise<ChatMessage> {
      await requireParticipant(roomId, userId);
      const listing = await findListingFacts(query, input.listingId);
      if (!listing || (await isBlockedBetween(query, userId, listing.seller_id)))
        throw listingNotFound();
      if (listing.seller_id === userId)
        throw badRequest('chatApi.errors.offerOwnListing', {
          listingId: 'chatApi.errors.offerOwnListing',
        });
      if (listing.listing_type === 'trade')
        throw badRequest('chatApi.errors.notForSale', { listingId: 'chatApi.errors.notForSale' });
      if (listing.status !== 'available') throw listingUnavailable();
      if (!(await isParticipant(query, roomId, listing.seller_id)))
        throw badRequest('chatApi.errors.sellerNotInRoom', {
          listingId: 'chatApi.errors.sellerNotInRoom',
        });
      let messageId: string;
      try {
        messageId = await inTransaction(database, async (q) => {
          const [offer] = await q<{ id: string }>(
            `insert into offers (listing_id, buyer_id, seller_id, room_id, amount, currency)
             values ($1, $2, $3, $4, $5, $6) returning id`,
            [listing.id, userId, listing.seller_id, roomId, input.amount, listing.currency],
          );
          const id = await insertMessage(q, {
            roomId,
            senderId: userId,
            type: 'offer',
            listingId: listing.id,
            offerId: offer.id,
          });
          if (!id) throw accessDenied();
          return id;
        });
      } catch (err) {
        // The partial unique index keeps one open offer per buyer and listing, even under races.
        if (sqlState(err) === '23505') throw conflict('chatApi.errors.offerPending');
        if (err instanceof AppError) throw err;
        log.error({ err }, 'offer not saved');
        throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      }
      const message = await publishMessage(roomId, messageId);
      afterCommit(roomId, message);
      if (deps.notifications && message.offer)
        await deps.notifications.notify(await offerNotices(query, [message.offer.id], userId));
      return message;
    },

    async answerOffer(userId: string, offerId: string, action: OfferAction): Promise<ChatMessage> {
      if (!isUuid(offerId)) throw accessDenied();
      const changedOffers = await answerInTransaction(async (q) => {
        // Every path that changes a listing and its offers locks the listing row first, then
        // the offers: two accepts on one listing queue on the listing instead of deadlocking,
        // and the second finds the listing reserved.
        const [target] = await q<{ listing_id: string }>(
          'select listing_id from offers where id = $1',
          [offerId],
        );
        if (!target) throw accessDenied();
        await q('select id from book_listings where id = $1 for no key update', [
          target.listing_id,
        ]);
        const [offer] = await q<{
          id: string;
          listing_id: string;
          buyer_id: string;
          seller_id: string;
          room_id: string;
          status: string;
          member: boolean;
        }>(
          `select o.id, o.listing_id, o.buyer_id, o.seller_id, o.room_id, o.status,
             exists (select 1 from chat_participants p
               where p.room_id = o.room_id and p.user_id = $2) as member
           from offers o where o.id = $1 for update`,
          [offerId, userId],
        );
        if (!offer || !offer.member) throw accessDenied();
        if (action === 'withdraw') {
          if (offer.buyer_id !== userId) throw forbidden('chatApi.errors.onlyBuyer');
        } else if (offer.seller_id !== userId) throw forbidden('chatApi.errors.onlySeller');
        const changed = [offer.id];
        const setStatus = (status: string) =>
          q(
            `update offers set status = $2,
               answered_at = coalesce(answered_at, now()) where id = $1`,
            [offer.id, status],
          );
        if (action === 'complete') {
          if (offer.status !== 'accepted') throw conflict('chatApi.errors.offerNotAccepted');
          // The listings module's own mark-sold: status, completed transaction, counters, rating.
          await createListingService({
            database: transactionalDatabase(database, q),
          }).completeWith(userId, offer.listing_id, 'sale', offer.buyer_id);
          await setStatus('completed');
          return changed;
        }
        if (offer.status !== 'pending') throw conflict('chatApi.errors.offerNotPending');
        if (action === 'accept') {
          const reserved = await q(
            `update book_listings set status = 'reserved', updated_at = now()
             where id = $1 and status = 'available' returning id`,
            [offer.listing_id],
          );
          if (reserved.length === 0) throw listingUnavailable();
          // The seller made the listing available again after an earlier accepted offer: the
          // new choice replaces that one, so a listing never has two accepted offers.
          const others = await q<{ id: string }>(
            `update offers set status = 'declined', answered_at = now()
             where listing_id = $1 and status in ('pending', 'accepted') and id <> $2
             returning id`,
            [offer.listing_id, offer.id],
          );
          await setStatus('accepted');
          changed.push(...others.map((o) => o.id));
        } else {
          await setStatus(action === 'decline' ? 'declined' : 'withdrawn');
        }
        return changed;
      });
      const messages = await query<{ id: string; room_id: string; offer_id: string }>(
        'select id, room_id, offer_id from chat_messages where offer_id = any($1::uuid[])',
        [changedOffers],
      );
      for (const m of messages) await publishUpdated(m.room_id, m.id);
      const own = messages.find((m) => m.offer_id === offerId);
      if (!own) throw accessDenied();
      if (deps.notifications && (action === 'accept' || action === 'decline'))
        await deps.notifications.notify(await offerNotices(query, changedOffers, userId));
      return (await findMessage(query, own.id))!;
    },
  };

  /**
   * Runs an offer answer in one transaction. A losing race (another accept, which the unique
   * index on accepted offers stops, or a deadlock the database broke) is a 409, never a 500.
   */
  async function answerInTransaction<T>(work: (q: Query) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(database, work);
    } catch (err) {
      const state = sqlState(err);
      if (state === '23505' || state === '40P01' || state === '40001')
        throw conflict('chatApi.errors.offerRace');
      throw err;
    }
  }

  /** Why an edit or delete changed nothing: no such message here (404) or not the sender's. */
  async function explainUnchanged(roomId: string, userId: string, messageId: string) {
    const [row] = isUuid(messageId)
      ? await query<{ sender_id: string | null; type: string; deleted_at: unknown }>(
          'select sender_id, type, deleted_at from chat_messages where id = $1 and room_id = $2',
          [messageId, roomId],
        )
      : [];
    if (!row || row.deleted_at !== null) throw notFound('chatApi.errors.messageNotFound');
    if (row.sender_id !== userId) throw forbidden('chatApi.errors.notYourMessage');
    throw badRequest('chatApi.errors.notEditable');
  }
}

export type ChatService = ReturnType<typeof createChatService>;
