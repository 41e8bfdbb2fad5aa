import type { FastifyInstance } from 'fastify';
import { queryOf } from '../../db/tx';
import { moduleChatContext, type ChatModuleDeps } from '../chats';
import { createDealContext, type DealContext } from './context';
import { meetingPart } from './meetings/part';
import type { DealParts } from './parts';
import { postPart } from './post/part';

/** The registry of the deal parts by method, built once: every DealContext carries it. */
export const dealParts: DealParts = { post: postPart, hand: meetingPart };

/**
 * The DealContext of a module that changes deals (the deals module, the payments' time limit),
 * on the module's dependencies: the parts, the conversations' context, what changed.
 */
export function moduleDealContext(app: FastifyInstance, deps: ChatModuleDeps): DealContext {
  const { database, realtime, notifications, listingChanges, changes, now } = deps;
  return createDealContext({
    parts: dealParts,
    database,
    query: queryOf(database),
    chat: moduleChatContext(app, deps),
    realtime,
    notifications,
    listingChanges,
    changes,
    now,
    log: app.log,
  });
}
