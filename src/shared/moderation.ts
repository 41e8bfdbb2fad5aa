import { z } from 'zod';
import { emailField, pageNumber, requiredText, pageOf } from './schemas/common';
import { personName, stripInvisibleControls } from './names';

/** Why something is reported (issue 12): spam, scam or fraud, offensive, illegal, other. */
export const REPORT_REASONS = ['spam', 'scam', 'offensive', 'illegal', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** The only reason a visitor (not signed in) may report for, with a name and an e-mail. */
export const VISITOR_REPORT_REASON: ReportReason = 'illegal';
export const REPORT_TEXT_MAX = 1000;
export const MODERATION_REASON_MAX = 2000;
export const ADMIN_QUEUE_PAGE_SIZE = 20;
export const ADMIN_LOG_PAGE_SIZE = 50;

/** Kinds a report may name: each is a reportable registered on the server. */
export const reportKindSchema = z
  .string({ error: 'validation.required' })
  .regex(/^[a-z][a-z_]{1,30}$/, { error: 'moderation.errors.unknownKind' });

export const reportSchema = z.object({
  kind: reportKindSchema,
  id: z.string({ error: 'validation.required' }).min(1, { error: 'validation.required' }).max(64),
  reason: z.enum(REPORT_REASONS, { error: 'moderation.errors.reasonRequired' }),
  text: z
    .string()
    .trim()
    .max(REPORT_TEXT_MAX, { error: 'validation.tooLong' })
    .optional()
    .transform((s) => (s ? s : undefined)),
  /** Visitors only: who reports (required then). */
  name: z
    .string()
    .transform(stripInvisibleControls)
    .pipe(z.string().trim().max(200, { error: 'validation.tooLong' }))
    .optional(),
  email: z.string().trim().max(254, { error: 'validation.invalidEmail' }).optional(),
});
export type ReportInput = z.input<typeof reportSchema>;

/** The visitor's own fields, checked when there is no session. */
export const visitorReporterSchema = z.object({
  name: personName(200),
  email: emailField(),
});

export const reportAnswerSchema = z.object({ id: z.string(), status: z.literal('open') });

/** A reported item as its readers see it (each reportable's `load`). */
export const moderationItemSchema = z.object({
  kind: z.string(),
  id: z.string(),
  title: z.string(),
  excerpt: z.string(),
  authorId: z.string().nullable(),
  authorName: z.string().nullable(),
  link: z.string().nullable(),
  /** Hidden (or, for a rejectable kind, rejected) by a moderator. */
  hidden: z.boolean(),
  /** The kind is rejected rather than hidden (ads): the queue offers "reject". */
  rejectable: z.boolean(),
  authorSuspended: z.boolean(),
});
export type ModerationItem = z.infer<typeof moderationItemSchema>;

export const queueEntrySchema = z.object({
  kind: z.string(),
  itemId: z.string(),
  count: z.number().int(),
  reasons: z.array(z.enum(REPORT_REASONS)),
  firstReportedAt: z.string(),
  lastReportedAt: z.string(),
  /** Null when the item no longer exists (deleted by its author). */
  item: moderationItemSchema.nullable(),
  reports: z.array(
    z.object({
      reason: z.enum(REPORT_REASONS),
      text: z.string().nullable(),
      reporter: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type QueueEntry = z.infer<typeof queueEntrySchema>;

export const queuePageSchema = pageOf(queueEntrySchema);
export type QueuePage = z.infer<typeof queuePageSchema>;

export const MODERATION_ACTIONS = [
  'dismiss',
  'hide',
  'restore',
  'suspend',
  'unsuspend',
  'grant_admin',
  'revoke_admin',
  'reject',
  'pin',
  'unpin',
  // The admins' corrections of works (issue 35, migration 0055).
  'edit_work',
  'move_book',
  'merge_works',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const logEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string().nullable(),
  action: z.enum(MODERATION_ACTIONS),
  kind: z.string().nullable(),
  itemId: z.string().nullable(),
  targetUserId: z.string().nullable(),
  targetName: z.string().nullable(),
  reason: z.string(),
  createdAt: z.string(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const logPageSchema = z.object({
  items: z.array(logEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type LogPage = z.infer<typeof logPageSchema>;

export const suspendedMemberSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
});
export const suspendedListSchema = z.object({ items: z.array(suspendedMemberSchema) });

/** Every moderation action states its reason (sent to the member as the statement of reasons). */
export const moderationReasonSchema = z.object({
  reason: requiredText(MODERATION_REASON_MAX),
});
export type ModerationReasonInput = z.input<typeof moderationReasonSchema>;

export const actionAnswerSchema = z.object({ ok: z.literal(true) });

export const pageQuerySchema = z.object({
  page: pageNumber('validation.invalid'),
});
