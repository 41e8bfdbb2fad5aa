import { z } from 'zod';
import { CURRENCIES, LISTING_STATUSES, LISTING_TYPES, isWholeCents } from '../marketplace';
import { pageNumber, queryInt } from './common';
import {
  MESSAGE_MAX_LENGTH,
  CHAT_PAGE_SIZE,
  ROOMS_MAX_PAGE_SIZE,
  GROUP_NAME_MAX_LENGTH,
  GROUP_MAX_PARTICIPANTS,
  OFFER_MAX_AMOUNT,
} from '../chatLimits';
import { DEAL_METHODS, chatDealSchema } from './deals';

/**
 * Chats API: request rules shared by the server and the web app, and the
 * answers' shapes. Messages are locale keys under `chatApi.*`.
 */

export * from '../chatLimits';

/** Trimmed, 1 to 4,000 characters: whitespace alone is not sent. */
export const messageContentField = () =>
  z
    .string({ error: 'chatApi.validation.contentRequired' })
    .trim()
    .min(1, { error: 'chatApi.validation.contentRequired' })
    .max(MESSAGE_MAX_LENGTH, { error: 'chatApi.validation.contentTooLong' });

const idField = (error: string) => z.string({ error }).trim().min(1, { error }).max(64, { error });

export const sendMessageSchema = z.object({ content: messageContentField() });
export type SendMessageInput = z.input<typeof sendMessageSchema>;

export const directRoomSchema = z.object({ userId: idField('chatApi.validation.userRequired') });

export const groupRoomSchema = z.object({
  name: z
    .string({ error: 'chatApi.validation.groupNameRequired' })
    .trim()
    .min(1, { error: 'chatApi.validation.groupNameRequired' })
    .max(GROUP_NAME_MAX_LENGTH, { error: 'chatApi.validation.groupNameTooLong' }),
  description: z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(500, { error: 'validation.tooLong' })
    .optional(),
  participantIds: z
    .array(idField('chatApi.validation.groupTooFew'), { error: 'chatApi.validation.groupTooFew' })
    .max(GROUP_MAX_PARTICIPANTS, { error: 'chatApi.validation.groupTooMany' }),
});
export type GroupRoomInput = z.input<typeof groupRoomSchema>;

export const contactSellerSchema = z.object({
  listingId: idField('chatApi.validation.listingRequired'),
  content: messageContentField(),
});
export type ContactSellerInput = z.input<typeof contactSellerSchema>;

/** More than 0, at most two decimals, in the listing's currency (the server decides it). */
export const offerAmountField = () =>
  z
    .number({ error: 'chatApi.validation.amountInvalid' })
    .gt(0, { error: 'chatApi.validation.amountPositive' })
    .max(OFFER_MAX_AMOUNT, { error: 'chatApi.validation.amountTooLarge' })
    .refine(isWholeCents, { error: 'chatApi.validation.amountDecimals' });

export const makeOfferSchema = z.object({
  listingId: idField('chatApi.validation.listingRequired'),
  amount: offerAmountField(),
  /**
   * How the book changes hands if the offer is accepted: 'post' (the listing's shipping cost is
   * added to the total; only for a listing with one) or 'hand'. By default post when the listing
   * has a shipping cost, else hand.
   */
  delivery: z.enum(DEAL_METHODS, { error: 'validation.invalid' }).optional(),
});
export type MakeOfferInput = z.input<typeof makeOfferSchema>;

/** The most books a member may offer in one trade (decision 0080). */
export const TRADE_OFFER_MAX_BOOKS = 3;
export const OFFER_KINDS = ['sale', 'trade'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

/**
 * A trade offer (decision 0080): the member who does not own the room's listing (`listingId`, of
 * type trade or both) offers one to three of their own available listings of type trade or both
 * in exchange, no amount. The deal goes hand to hand.
 */
export const makeTradeOfferSchema = z.object({
  listingId: idField('chatApi.validation.listingRequired'),
  offeredListingIds: z
    .array(idField('chatApi.validation.tradeBooksRequired'), {
      error: 'chatApi.validation.tradeBooksRequired',
    })
    .min(1, { error: 'chatApi.validation.tradeBooksRequired' })
    .max(TRADE_OFFER_MAX_BOOKS, { error: 'chatApi.validation.tradeBooksTooMany' })
    .refine((ids) => new Set(ids).size === ids.length, {
      error: 'chatApi.validation.tradeBooksRepeated',
    }),
  /**
   * 'hand' (a meeting, the default) or 'post': each member sends their own books and pays their
   * own parcel (decision 0090; the offer's `shippingAmount` is then 0).
   */
  delivery: z.enum(DEAL_METHODS, { error: 'validation.invalid' }).optional(),
});
export type MakeTradeOfferInput = z.input<typeof makeTradeOfferSchema>;

export const roomsQuerySchema = z.object({
  page: pageNumber('validation.invalid'),
  pageSize: queryInt('validation.invalid', 1, ROOMS_MAX_PAGE_SIZE),
});

export const messagesQuerySchema = z.object({
  before: z.string().max(64, { error: 'validation.invalid' }).optional(),
  after: z.string().max(64, { error: 'validation.invalid' }).optional(),
  limit: queryInt('validation.invalid', 1, CHAT_PAGE_SIZE),
});

// ---------- answers ----------

export const chatUserSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  online: z.boolean(),
  lastSeenAt: z.string().nullable(),
  /** The member deleted their account: shown as "Deleted member" with a neutral avatar. */
  deleted: z.boolean().optional(),
});
export type ChatUser = z.infer<typeof chatUserSchema>;

export const chatSenderSchema = chatUserSchema.omit({ online: true });
export type ChatSender = z.infer<typeof chatSenderSchema>;

export const chatListingSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  price: z.number().nullable(),
  currency: z.string(),
  coverUrl: z.string().nullable(),
  listingType: z.enum(LISTING_TYPES),
  status: z.enum(LISTING_STATUSES),
});
export type ChatListing = z.infer<typeof chatListingSchema>;

export const OFFER_STATUSES = [
  'pending',
  'accepted',
  'declined',
  'withdrawn',
  'completed',
  'cancelled',
  /** The seller answered it with a counter-offer (another offer, `counterOf` naming this one). */
  'countered',
] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const offerSchema = z.object({
  id: z.string(),
  /** Null once the listing was deleted after the offer's deal ended (issue 32). */
  listingId: z.string().nullable(),
  buyerId: z.string(),
  sellerId: z.string(),
  /** 'trade': books for books, no amount (decision 0080). */
  kind: z.enum(OFFER_KINDS),
  /** null for a trade. */
  amount: z.number().nullable(),
  currency: z.enum(CURRENCIES),
  status: z.enum(OFFER_STATUSES),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
  /**
   * The shipping cost the total includes; null when the book is handed over. A trade by post has
   * 0: each member pays their own parcel (decision 0090).
   */
  shippingAmount: z.number().nullable(),
  /** The deal an accepted offer opened (issue 22); null before. */
  dealId: z.string().nullable(),
  /** A trade's books of the member who proposed it (the other's is `listingId`). */
  offered: z.array(chatListingSchema).optional(),
  /**
   * A seller's counter-offer (issue 33): the buyer's offer it answers. The seller made it, so
   * the buyer accepts or declines it and the seller may withdraw it. Absent on other offers.
   */
  counterOf: z.string().optional(),
});
export type Offer = z.infer<typeof offerSchema>;

/** A seller's counter-offer to a buyer's pending sale offer: another amount, same terms. */
export const counterOfferSchema = z.object({ amount: offerAmountField() });
export type CounterOfferInput = z.input<typeof counterOfferSchema>;

export const MESSAGE_TYPES = ['text', 'listing', 'offer', 'system', 'deal'] as const;

export const chatMessageSchema = z.object({
  id: z.string(),
  roomId: z.string(),
  senderId: z.string().nullable(),
  sender: chatSenderSchema.nullable(),
  /** '' when deleted. System messages carry a code: 'left' (the sender left the room). */
  content: z.string(),
  type: z.enum(MESSAGE_TYPES),
  listing: chatListingSchema.optional(),
  offer: offerSchema.optional(),
  /** A step of a deal (type 'deal'): the content is the step's code. */
  deal: chatDealSchema.optional(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  deleted: z.boolean(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatRoomSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  isGroup: z.boolean(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  participants: z.array(chatUserSchema),
  lastMessage: chatMessageSchema.nullable(),
  unreadCount: z.number().int(),
  listing: chatListingSchema.nullable().optional(),
});
export type ChatRoom = z.infer<typeof chatRoomSchema>;

export const roomsPageSchema = z.object({
  items: z.array(chatRoomSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export const messagesPageSchema = z.object({
  items: z.array(chatMessageSchema),
  hasMore: z.boolean(),
});
export const unreadSchema = z.object({ total: z.number().int() });
export const roomAnswerSchema = z.object({ room: chatRoomSchema });
export const messageAnswerSchema = z.object({ message: chatMessageSchema });
export const contactAnswerSchema = z.object({ roomId: z.string(), message: chatMessageSchema });
