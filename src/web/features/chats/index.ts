// The chats feature's public surface. The page is loaded lazily by the router (never from here),
// so the shell and the book detail take only these small pieces.
export { ChatsUnreadBadge, useLiveUnreadTotal } from './UnreadBadge';
export { ContactSeller } from './ContactSeller';
export { MissedMessagesSwitch } from './MissedMessagesSwitch';
