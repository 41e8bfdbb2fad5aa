// Chats limits shared by the server and the web app, without zod: the book page's contact form
// needs the message limit, not the schemas of schemas/chats.ts (which re-exports these).

export const MESSAGE_MAX_LENGTH = 4000;
export const CHAT_PAGE_SIZE = 50;
export const CHAT_CATCH_UP_LIMIT = 200;
export const ROOMS_PAGE_SIZE = 20;
export const ROOMS_MAX_PAGE_SIZE = 50;
export const GROUP_NAME_MAX_LENGTH = 100;
export const GROUP_MAX_PARTICIPANTS = 50;
export const OFFER_MAX_AMOUNT = 100_000;
/** A member's typing is relayed at most this often per room. */
export const TYPING_THROTTLE_MS = 2000;
/** Clients show "X is typing…" this long after the last typing event. */
export const TYPING_SHOW_MS = 4000;
