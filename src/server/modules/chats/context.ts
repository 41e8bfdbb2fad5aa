import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../platform/module';
import type { ChatMessage, ChatRoom } from '@shared/schemas/chats';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { AppError, conflict, forbidden } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import type { Realtime } from '../../platform/realtime';
import type { Notifications } from '../../platform/notifications';
import type { ListingChanges } from '../../platform/listing-changes';
import type { Changes } from '../../platform/changes';
import { createMissedMessageNotifier } from './email';
import { insertMessage } from './insert';
import { holidayRepliesTo } from '../profiles';
import { createPublisher, messageEvent } from './events';
import { findMessageWithAudience, findRoomFor, isParticipant, participantIds } from './queries';
import { queryOf } from '../../db/tx';

export interface ChatServiceDeps {
  database: Database;
  realtime: Realtime;
  mailer: Mailer;
  /** Offers made and answered tell the other member (platform/notifications). */
  notifications?: Notifications;
  /** An accepted or completed offer changes its listing (platform/listing-changes.ts). */
  listingChanges?: ListingChanges;
  /** What changed (platform/changes.ts): a deal opened, the listings an accept reserved. */
  changes: Changes;
  config: Pick<Config, 'publicUrl' | 'payments'>;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** A member who is not in a room, and a room that does not exist, get the same answer. */
export const accessDenied = () => forbidden();
export const listingUnavailable = () => conflict('chatApi.errors.listingUnavailable');
/** A neutral refusal: it does not say that a block is the reason. */
export const cannotMessage = () => forbidden('blocks.errors.cannotMessage');

/**
 * What the parts of the chat service (rooms, messages, offers) share: their dependencies, the
 * database, the checks every route makes, publishing to the members concerned, and the e-mail
 * work that follows a new message.
 */
export function createChatContext(deps: ChatServiceDeps) {
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

  function inBackground(work: Promise<unknown>, failure: string, context: object) {
    const job: Promise<void> = work
      .then(() => undefined)
      .catch((err) => log.error({ err, ...context }, failure))
      .finally(() => background.delete(job));
    background.add(job);
  }

  /**
   * A member on holiday answers the first message typed to them in a conversation (one reply per
   * room and holiday, profiles/holiday.ts), after the messages are delivered.
   */
  async function answerForAway(messages: readonly ChatMessage[]) {
    const replies = await holidayRepliesTo(
      database,
      messages,
      deps.now(),
      (q, roomId, awayId, text) =>
        insertMessage(q, { roomId, senderId: awayId, type: 'system', content: text }),
    );
    for (const r of replies) await publishMessage(r.roomId, r.messageId);
  }

  /** After a new message: the missed-message e-mail and a holiday's reply, nobody waits for. */
  function afterCommit(roomId: string, message: ChatMessage) {
    inBackground(notifyMissed(roomId, message), 'missed-message e-mail failed', { roomId });
    inBackground(answerForAway([message]), 'holiday reply failed', { roomId });
  }

  /** The same for a batch of new messages (the socket's sends): one look-up for them all. */
  function afterCommitMany(messages: readonly ChatMessage[]) {
    if (messages.length === 0) return;
    const context = { count: messages.length };
    inBackground(notifyMissed.many(messages), 'missed-message e-mail failed', context);
    inBackground(answerForAway(messages), 'holiday reply failed', context);
  }

  /** Unexpected failures are logged and answer 500 with `key`, the action's failure text. */
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
    deps,
    database,
    realtime,
    log,
    query,
    publish,
    onlineAmong,
    background,
    afterCommit,
    afterCommitMany,
    orFail,
    requireParticipant,
    roomFor,
    publishMessage,
    publishUpdated,
  };
}

export type ChatContext = ReturnType<typeof createChatContext>;

/** What a module's conversations (and deals, built on them) need of the app's dependencies. */
export type ChatModuleDeps = Pick<
  ModuleDeps,
  | 'database'
  | 'realtime'
  | 'mailer'
  | 'config'
  | 'now'
  | 'notifications'
  | 'listingChanges'
  | 'changes'
>;

/**
 * The chat context of a module that posts into conversations (chats, deals, bundles): built on
 * the module's dependencies, its pending e-mail work awaited when the app closes.
 */
export function moduleChatContext(app: FastifyInstance, deps: ChatModuleDeps) {
  const chat = createChatContext({ ...deps, log: app.log });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...chat.background]);
  });
  return chat;
}
