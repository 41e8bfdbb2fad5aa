import { z } from 'zod';

/**
 * Hand to hand (issue 22 item 2): the part of a deal that a meeting adds — the place and time
 * proposed, countered and accepted, and each side's confirmation that the exchange happened.
 * Owned by modules/deals/meetings; the core (./deals.ts) carries it as `deal.meeting`.
 */
export const dealMeetingSchema = z.object({});
export type DealMeeting = z.infer<typeof dealMeetingSchema>;
