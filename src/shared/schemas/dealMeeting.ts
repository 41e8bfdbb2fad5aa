import { z } from 'zod';

/**
 * Hand to hand (issue 22 item 2, decision 0075): the part of a deal that a meeting adds — the
 * place and time proposed, countered and accepted, and each side's confirmation that the exchange
 * happened. Owned by modules/deals/meetings; the core (./deals.ts) carries it as `deal.meeting`.
 */
export const MEETING_PLACE_MAX = 200;
export const MEETING_NOTE_MAX = 500;
/** How far ahead a meeting may be proposed. */
export const MEETING_MAX_DAYS_AHEAD = 90;
export const MEETING_STEPS = [
  'meeting.proposed',
  'meeting.countered',
  'meeting.accepted',
  'meeting.confirmed',
] as const;
export type MeetingStep = (typeof MEETING_STEPS)[number];

/** Whether `at` is in the future and at most MEETING_MAX_DAYS_AHEAD from `now`: null when fine. */
export function meetingTimeProblem(at: Date, now: Date): 'past' | 'tooFar' | null {
  if (at.getTime() <= now.getTime()) return 'past';
  if (at.getTime() > now.getTime() + MEETING_MAX_DAYS_AHEAD * 24 * 60 * 60 * 1000) return 'tooFar';
  return null;
}

const AT_ERROR = 'deals.meeting.errors.at';

/** POST /api/deals/:id/meeting: a place, an optional note, a time (ISO 8601 with its offset). */
export const meetingProposalSchema = z.object({
  place: z
    .string({ error: 'deals.meeting.errors.placeRequired' })
    .trim()
    .min(1, { error: 'deals.meeting.errors.placeRequired' })
    .max(MEETING_PLACE_MAX, { error: 'deals.meeting.errors.placeTooLong' }),
  note: z
    .string({ error: 'validation.invalid' })
    .trim()
    .max(MEETING_NOTE_MAX, { error: 'deals.meeting.errors.noteTooLong' })
    .optional(),
  at: z
    .string({ error: AT_ERROR })
    .max(40, { error: AT_ERROR })
    .pipe(z.iso.datetime({ offset: true, error: AT_ERROR })),
});
export type MeetingProposal = z.infer<typeof meetingProposalSchema>;

/** POST /api/deals/:id/meeting/accept: the proposal the member saw (a newer one is a 409). */
export const meetingAcceptSchema = z.object({
  meetingId: z.string({ error: 'validation.invalid' }).max(64, { error: 'validation.invalid' }),
});

export const meetingSchema = z.object({
  id: z.string(),
  place: z.string(),
  note: z.string().nullable(),
  /** The time, ISO 8601. */
  at: z.string(),
  proposedBy: z.enum(['buyer', 'seller']),
  /** Open: waiting for the other side's answer; accepted: agreed by both. */
  status: z.enum(['open', 'accepted']),
  createdAt: z.string(),
});
export type Meeting = z.infer<typeof meetingSchema>;

export const dealMeetingSchema = z.object({
  /** The proposal open or accepted now; null before anyone proposed. */
  current: meetingSchema.nullable(),
  /** When each side confirmed the exchange happened (null: not yet). */
  confirmed: z.object({ buyer: z.string().nullable(), seller: z.string().nullable() }),
  /** The accepted time has come (by the server's clock): the sides may confirm. */
  due: z.boolean(),
});
export type DealMeeting = z.infer<typeof dealMeetingSchema>;
