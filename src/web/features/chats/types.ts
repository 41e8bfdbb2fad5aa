// The chats API's shapes, from the schemas the server answers with (src/shared/schemas/chats.ts).
import type {
  ChatListing,
  ChatMessage,
  ChatRoom,
  ChatUser as ApiChatUser,
  Offer,
  OfferStatus,
} from '@shared/schemas/chats';

/** A member in a room; `avatarSeed` draws the identicon when the server sends it. */
export type ChatUser = ApiChatUser & { avatarSeed?: string | null };
export type Message = ChatMessage;
export type Room = ChatRoom;
export type { ChatListing, Offer, OfferStatus };

export interface RoomPage {
  items: Room[];
  page: number;
  pageSize: number;
  total: number;
}

export interface MessagePage {
  items: Message[];
  hasMore: boolean;
}
