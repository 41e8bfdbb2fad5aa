import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { users, memberRef } from './accounts';
import { bookListings } from './marketplace';

// Mirrors migration 0006_chats.sql (the migration is the source of truth).

export const chatRooms = pgTable('chat_rooms', {
  id: uuidPk(),
  name: text('name'),
  description: text('description'),
  isGroup: boolean('is_group').notNull().default(false),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  directKey: text('direct_key').unique(),
  listingId: uuid('listing_id').references(() => bookListings.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const chatParticipants = pgTable(
  'chat_participants',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    userId: memberRef('user_id'),
    joinedAt: timestamptz('joined_at').notNull().defaultNow(),
    lastReadAt: timestamptz('last_read_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.roomId, t.userId] }),
    index('chat_participants_user_idx').on(t.userId, t.roomId),
  ],
);

export const offers = pgTable(
  'offers',
  {
    id: uuidPk(),
    /** Null once the listing is deleted after its deal ended (migration 0047). */
    listingId: uuid('listing_id').references(() => bookListings.id, { onDelete: 'set null' }),
    buyerId: memberRef('buyer_id'),
    sellerId: memberRef('seller_id'),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    /** Null for a trade (migration 0046). */
    amount: numeric('amount', { precision: 10, scale: 2 }),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('pending'),
    createdAt: createdAt(),
    answeredAt: timestamptz('answered_at'),
    /**
     * The shipping cost the total includes; null: handed over (migration 0040). A trade by post
     * has 0: each member pays their own parcel (migration 0048).
     */
    shippingAmount: numeric('shipping_amount', { precision: 10, scale: 2 }),
    /** An offer for several books of the seller (migration 0044). */
    bundle: boolean('bundle').notNull().default(false),
    /** 'sale', or 'trade': books for books, no amount (migration 0046, decision 0080). */
    kind: text('kind').notNull().default('sale'),
    /** A seller's counter-offer names the buyer's offer it answers (migration 0051). */
    counterOf: uuid('counter_of').references((): AnyPgColumn => offers.id, {
      onDelete: 'cascade',
    }),
  },
  (t) => [
    uniqueIndex('offers_one_pending_idx')
      .on(t.listingId, t.buyerId)
      .where(sql`status = 'pending'`),
    // A listing has at most one accepted offer, whatever the timing of two accepts.
    uniqueIndex('offers_one_accepted_idx')
      .on(t.listingId)
      .where(sql`status = 'accepted'`),
    index('offers_listing_status_idx').on(t.listingId, t.status),
    // One open bundle offer per buyer and seller (migration 0044).
    uniqueIndex('offers_one_pending_bundle_idx')
      .on(t.buyerId, t.sellerId)
      .where(sql`status = 'pending' and bundle`),
    uniqueIndex('offers_one_counter_idx')
      .on(t.counterOf)
      .where(sql`counter_of is not null`),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuidPk(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    senderId: text('sender_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull().default('text'),
    content: text('content').notNull().default(''),
    listingId: uuid('listing_id').references(() => bookListings.id, { onDelete: 'set null' }),
    offerId: uuid('offer_id').references(() => offers.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at')
      .notNull()
      .default(sql`clock_timestamp()`),
    /** A step of a deal (type 'deal', migration 0040). */
    dealId: uuid('deal_id').references((): AnyPgColumn => deals.id, { onDelete: 'set null' }),
    editedAt: timestamptz('edited_at'),
    deletedAt: timestamptz('deleted_at'),
    /** Set when a moderator removes the message (migration 0016). */
    removedAt: timestamptz('removed_at'),
    /** The sender's own id for the message, unique per sender: retries store it once (0033). */
    clientId: uuid('client_id'),
  },
  (t) => [
    index('chat_messages_room_idx').on(t.roomId, t.createdAt, t.id),
    unique('chat_messages_sender_client_key').on(t.senderId, t.clientId),
  ],
);

export const chatEmailNotices = pgTable(
  'chat_email_notices',
  {
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    userId: memberRef('user_id'),
    sentAt: timestamptz('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] })],
);

// Deals (migration 0040, decision 0072): an accepted offer carried to its end.

/** The listings an offer covers: one for a single book, several for a bundle. */
export const offerListings = pgTable(
  'offer_listings',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => bookListings.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.listingId] }),
    index('offer_listings_listing_idx').on(t.listingId, t.offerId),
  ],
);

export const deals = pgTable(
  'deals',
  {
    id: uuidPk(),
    offerId: uuid('offer_id')
      .notNull()
      .unique()
      .references(() => offers.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    buyerId: memberRef('buyer_id'),
    sellerId: memberRef('seller_id'),
    /** 'post' | 'hand' */
    method: text('method').notNull(),
    /** 'open' | 'completed' | 'cancelled' */
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    endedAt: timestamptz('ended_at'),
  },
  (t) => [
    index('deals_buyer_idx').on(t.buyerId, t.createdAt.desc(), t.id),
    index('deals_seller_idx').on(t.sellerId, t.createdAt.desc(), t.id),
    index('deals_open_idx')
      .on(t.createdAt)
      .where(sql`status = 'open'`),
  ],
);
