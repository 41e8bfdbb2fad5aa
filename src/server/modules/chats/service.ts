import { createChatContext, type ChatServiceDeps } from './context';
import { messageActions } from './messages';
import { offerActions } from './offers';
import { roomActions } from './rooms';
import { sendActions } from './send';
import { tradeOfferActions } from './trade-offers';

export type { ChatServiceDeps } from './context';
export type { OfferAction } from './offers';

/**
 * The chats module's service: conversations (./rooms.ts), their messages (./messages.ts, sent by ./send.ts) and the
 * marketplace in them, contacts and offers (./offers.ts), on a shared context (./context.ts).
 */
export function createChatService(deps: ChatServiceDeps) {
  const ctx = createChatContext(deps);
  return {
    /** Pending e-mail work, so tests (and a graceful shutdown) can wait for it. */
    background: ctx.background,
    ...roomActions(ctx),
    ...messageActions(ctx),
    ...sendActions(ctx),
    ...offerActions(ctx),
    ...tradeOfferActions(ctx),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
