// A chat message holds at most this many characters once trimmed (the server's own rule).
export { MESSAGE_MAX_LENGTH as CHAT_MESSAGE_MAX } from '@shared/chatLimits';
