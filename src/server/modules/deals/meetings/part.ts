import type { DealMeeting, Meeting } from '@shared/schemas/dealMeeting';
import type { Query } from '../../../db/tx';
import { toIso } from '../../../db/rows';
import type { DealFacts, DealPart } from '../parts';

/**
 * Hand to hand (issue 22 item 2, decisions 0075 and 0083): a meeting proposed, countered and
 * accepted; after its time (or without one) both sides confirm the exchange happened, which
 * completes the deal (the core's completeDeal). Nobody completes it alone. Every step is a message in the conversation and a notification to the other side.
 */

interface MeetingRow {
  id: string;
  proposed_by: string;
  place: string;
  note: string | null;
  meet_at: Date;
  status: 'open' | 'accepted';
  created_at: Date;
}

/** The deal's current proposal (open or accepted), locked with `for update` when asked. */
export async function currentMeeting(
  q: Query,
  dealId: string,
  lock = false,
): Promise<MeetingRow | null> {
  const [row] = await q<MeetingRow>(
    `select id::text, proposed_by, place, note, meet_at, status, created_at
     from deal_meetings where deal_id = $1 and status in ('open', 'accepted')
     ${lock ? 'for update' : ''}`,
    [dealId],
  );
  return row ?? null;
}

export async function confirmations(q: Query, dealId: string): Promise<Map<string, Date>> {
  const rows = await q<{ user_id: string; confirmed_at: Date }>(
    'select user_id, confirmed_at from deal_meeting_confirmations where deal_id = $1',
    [dealId],
  );
  return new Map(rows.map((r) => [r.user_id, new Date(r.confirmed_at)]));
}

export const sideOf = (deal: DealFacts, userId: string): 'buyer' | 'seller' =>
  userId === deal.buyerId ? 'buyer' : 'seller';

function toMeeting(deal: DealFacts, row: MeetingRow): Meeting {
  return {
    id: row.id,
    place: row.place,
    note: row.note,
    at: toIso(row.meet_at),
    proposedBy: sideOf(deal, row.proposed_by),
    status: row.status,
    createdAt: toIso(row.created_at),
  };
}

export const meetingPart: DealPart<DealMeeting> = {
  method: 'hand',

  async state(q, deal, _viewer, now) {
    const row = await currentMeeting(q, deal.id);
    const confirmed = await confirmations(q, deal.id);
    const at = (id: string) => {
      const when = confirmed.get(id);
      return when ? when.toISOString() : null;
    };
    return {
      current: row ? toMeeting(deal, row) : null,
      confirmed: { buyer: at(deal.buyerId), seller: at(deal.sellerId) },
      due:
        row !== null &&
        row.status === 'accepted' &&
        new Date(row.meet_at).getTime() <= now.getTime(),
    };
  },

  // Once one side has said the exchange happened, the deal is no longer the other's to cancel.
  async cancelRefusal(q, deal) {
    const confirmed = await confirmations(q, deal.id);
    return confirmed.size > 0 ? 'deals.meeting.errors.confirmedNoCancel' : null;
  },
};
