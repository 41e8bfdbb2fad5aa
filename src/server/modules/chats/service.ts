import { createChatContext, type ChatServiceDeps } from './context';
import { messageActions } from './messages';
import { contactActions } from './contact';
import { roomActions } from './rooms';
import { sendActions } from './send';

export type { ChatServiceDeps } from './context';

/**
 * The chats module's service: conversations (./rooms.ts), their messages (./messages.ts, sent by
 * ./send.ts) and contacting a seller (./contact.ts), on a shared context (./context.ts). The offers
 * made in them are the deals' (modules/deals/offers).
 */
export function createChatService(deps: ChatServiceDeps) {
  const ctx = createChatContext(deps);
  return {
    /** Pending e-mail work, so tests (and a graceful shutdown) can wait for it. */
    background: ctx.background,
    ...roomActions(ctx),
    ...messageActions(ctx),
    ...sendActions(ctx),
    ...contactActions(ctx),
  };
}

export type ChatService = ReturnType<typeof createChatService>;
