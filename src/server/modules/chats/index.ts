/**
 * The chats module's contract: the chat context deals and offers work in, rooms and messages,
 * the room notifications and the live listing cards.
 */
export {
  accessDenied,
  type ChatContext,
  type ChatModuleDeps,
  listingUnavailable,
  moduleChatContext,
} from './context';
export { createListingAnnouncer } from './listing-events';
export { insertMessage } from './insert';
export { defineRoomNotification, SUBJECT as ROOM_SUBJECT } from './notifications';
export {
  directKey,
  findListingFacts,
  findMessage,
  isParticipant,
  type ListingFacts,
} from './queries';
export { directRoom } from './rooms';
