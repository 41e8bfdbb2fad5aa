import { z } from 'zod';
import { CONDITIONS, CURRENCIES } from '../marketplace';
import { pageNumber } from './common';
import { dealPostSchema } from './dealPost';
import { dealMeetingSchema } from './dealMeeting';
import { dealTradePostSchema } from './dealTradePost';

/**
 * Deals (issue 22, decision 0072): an accepted offer carried to its end on the platform. A deal
 * covers one listing, or several of one seller (a bundle); it goes by post when the offer included
 * shipping, else hand to hand; it ends completed (its listings sold, one transaction each) or
 * cancelled (its listings available again). Each step is a message of type 'deal' in the
 * conversation, whose content is the step's code (DEAL_STEPS and those of post and meetings).
 */
export const DEAL_METHODS = ['post', 'hand'] as const;
export type DealMethod = (typeof DEAL_METHODS)[number];
export const DEAL_STATUSES = ['open', 'completed', 'cancelled'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];
/** The core's steps; post and meetings add their own codes ('post.*', 'meeting.*'). */
export const DEAL_STEPS = ['deal.opened', 'deal.completed', 'deal.cancelled'] as const;
export const DEALS_PAGE_SIZE = 20;

export const dealMemberSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
});

/**
 * A book of the deal as it was agreed when the offer was accepted (issue 32): later edits of the
 * listing do not change it, and it stays after the listing is deleted (`id` null then).
 */
export const dealListingSchema = z.object({
  /** The listing; null once it was deleted (after the deal ended). */
  id: z.string().nullable(),
  title: z.string(),
  author: z.string(),
  condition: z.enum(CONDITIONS),
  description: z.string().nullable(),
  coverUrl: z.string().nullable(),
  price: z.number().nullable(),
  currency: z.enum(CURRENCIES),
  /** The listing's shipping cost when it was agreed (null: none). */
  shippingCost: z.number().nullable(),
  /** The member the book belongs to (in a trade, each side gives their own). */
  ownerId: z.string(),
});

export const dealSchema = z.object({
  id: z.string(),
  offerId: z.string(),
  roomId: z.string(),
  method: z.enum(DEAL_METHODS),
  status: z.enum(DEAL_STATUSES),
  /** 'trade': books for books, no amount (decision 0080), by hand or by post (0090). */
  kind: z.enum(['sale', 'trade']),
  /** Who is looking: a side of the deal, or an admin (a problem's case). */
  role: z.enum(['buyer', 'seller', 'admin']),
  buyer: dealMemberSchema,
  seller: dealMemberSchema,
  listings: z.array(dealListingSchema),
  /** The offer's amount for the book(s); null for a trade. */
  amount: z.number().nullable(),
  /** Shipping included in the total; null when handed over (0 for a trade by post). */
  shippingAmount: z.number().nullable(),
  total: z.number(),
  currency: z.enum(CURRENCIES),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  /** Sale by post's state (a sale of method 'post'), else null. */
  post: dealPostSchema.nullable(),
  /** A trade by post's two parcels (a trade of method 'post', decision 0090), else null. */
  tradePost: dealTradePostSchema.nullable(),
  /** The meeting's state (method 'hand'), else null. */
  meeting: dealMeetingSchema.nullable(),
});
export type Deal = z.infer<typeof dealSchema>;

export const dealAnswerSchema = z.object({ deal: dealSchema });

/** A deal in a list: what a row of "my deals" shows. */
export const dealSummarySchema = dealSchema.pick({
  id: true,
  roomId: true,
  method: true,
  status: true,
  kind: true,
  role: true,
  buyer: true,
  seller: true,
  listings: true,
  total: true,
  currency: true,
  createdAt: true,
  endedAt: true,
});
export type DealSummary = z.infer<typeof dealSummarySchema>;

export const dealsQuerySchema = z.object({
  page: pageNumber('validation.invalid'),
  status: z.enum(DEAL_STATUSES, { error: 'validation.invalid' }).optional(),
  role: z.enum(['buyer', 'seller'], { error: 'validation.invalid' }).optional(),
});
export const dealsPageSchema = z.object({
  items: z.array(dealSummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});

/** What a 'deal' message of a conversation carries besides its step code (its content). */
export const chatDealSchema = z.object({
  id: z.string(),
  method: z.enum(DEAL_METHODS),
  status: z.enum(DEAL_STATUSES),
  /** A trade's deal (decision 0080); absent for a sale. */
  kind: z.enum(['sale', 'trade']).optional(),
});
