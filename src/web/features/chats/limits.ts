/** A chat message holds at most this many characters once trimmed (the server checks the same). */
export const CHAT_MESSAGE_MAX = 4_000;
