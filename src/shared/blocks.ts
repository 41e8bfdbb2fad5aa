import { z } from 'zod';
import { pageQuerySchema } from './moderation';
import { memberSummarySchema, pageOf } from './schemas/common';

/** Blocked members listed per page in settings. */
export const BLOCKS_PAGE_SIZE = 20;

export const blockParamsSchema = z.object({ userId: z.string().min(1).max(64) });

/** Whether I blocked this member (never whether they blocked me: blocking is silent). */
export const blockStateSchema = z.object({
  userId: z.string(),
  blocked: z.boolean(),
});
export type BlockState = z.infer<typeof blockStateSchema>;

export const blockedMemberSchema = z.object({
  member: memberSummarySchema,
  blockedAt: z.string(),
});
export type BlockedMember = z.infer<typeof blockedMemberSchema>;

export const blockedPageSchema = pageOf(blockedMemberSchema);
export type BlockedPage = z.infer<typeof blockedPageSchema>;

export const blocksQuerySchema = pageQuerySchema;
