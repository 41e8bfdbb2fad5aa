// The shapes of the chats API (see CHATS-CONTRACT.md; the server is the authority).
import type { ListingStatus, ListingType } from '@shared/marketplace';

export interface ChatUser {
  id: string;
  displayName: string;
  username: string | null;
  avatarUrl: string | null;
  avatarSeed?: string | null;
  online: boolean;
  lastSeenAt: string | null;
}

export interface ChatListing {
  id: string;
  title: string;
  author: string;
  price: number | null;
  currency: string;
  coverUrl: string | null;
  listingType: ListingType;
  status: ListingStatus;
  /** Present when the server sends it; otherwise the seller is inferred (see offers.ts). */
  sellerId?: string;
}

export type OfferStatus = 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'completed';

export interface Offer {
  id: string;
  listingId: string;
  buyerId: string;
  sellerId: string;
  amount: number;
  currency: string;
  status: OfferStatus;
  createdAt: string;
  answeredAt: string | null;
}

export type MessageType = 'text' | 'listing' | 'offer' | 'system';

export interface Message {
  id: string;
  roomId: string;
  senderId: string | null;
  sender: Omit<ChatUser, 'online'> | null;
  content: string;
  type: MessageType;
  listing?: ChatListing | null;
  offer?: Offer | null;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
}

export interface Room {
  id: string;
  name: string | null;
  description: string | null;
  isGroup: boolean;
  createdBy: string | null;
  updatedAt: string;
  participants: ChatUser[];
  lastMessage: Message | null;
  unreadCount: number;
  listing?: ChatListing | null;
}

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
