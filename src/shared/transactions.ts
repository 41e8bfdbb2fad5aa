import { z } from 'zod';
import { listingDetailSchema } from './marketplace';

/**
 * A sale or trade counts (stats, ratings, history, reviews) only once both members agreed to it:
 * the buyer's offer was accepted in a conversation, or the member the seller named confirmed it.
 */

/** POST /api/listings/:id/complete: done now (an accepted offer), or waiting for the member. */
export const completionResultSchema = z.object({
  outcome: z.enum(['completed', 'pending']),
  transactionId: z.string(),
  listing: listingDetailSchema,
});
export type CompletionResult = z.infer<typeof completionResultSchema>;

/** A sale or trade waiting for the named member's answer, as either member sees it. */
export const pendingTransactionSchema = z.object({
  transactionId: z.string(),
  kind: z.enum(['sale', 'trade']),
  /** 'buyer': I am asked to confirm; 'seller': I am waiting for the other member. */
  role: z.enum(['buyer', 'seller']),
  listingId: z.string().nullable(),
  listingTitle: z.string().nullable(),
  other: z.object({ id: z.string(), displayName: z.string(), username: z.string().nullable() }),
  createdAt: z.string(),
});
export type PendingTransaction = z.infer<typeof pendingTransactionSchema>;
export const pendingTransactionsSchema = z.object({ items: z.array(pendingTransactionSchema) });
export type PendingTransactions = z.infer<typeof pendingTransactionsSchema>;

/** The answer to a confirmation or a decline. */
export const transactionAnswerSchema = z.object({
  transactionId: z.string(),
  status: z.enum(['completed', 'cancelled']),
});
export type TransactionAnswer = z.infer<typeof transactionAnswerSchema>;
