import { describe, expect, it } from 'vitest';
import { meetingProposalSchema, meetingTimeProblem } from './dealMeeting';

const now = new Date('2026-11-26T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

describe('a meeting proposal', () => {
  it('is in the future and at most 90 days ahead', () => {
    expect(meetingTimeProblem(now, now)).toBe('past');
    expect(meetingTimeProblem(new Date(now.getTime() - 1), now)).toBe('past');
    expect(meetingTimeProblem(new Date(now.getTime() + 1), now)).toBeNull();
    expect(meetingTimeProblem(new Date(now.getTime() + 90 * DAY), now)).toBeNull();
    expect(meetingTimeProblem(new Date(now.getTime() + 90 * DAY + 1), now)).toBe('tooFar');
  });

  it('trims the place, keeps a time with its offset, refuses one without', () => {
    const ok = meetingProposalSchema.parse({
      place: '  Piazza  ',
      at: '2026-11-27T18:00:00+01:00',
    });
    expect(ok).toEqual({ place: 'Piazza', at: '2026-11-27T18:00:00+01:00' });
    const errors = (body: object) =>
      meetingProposalSchema.safeParse(body).error?.issues.map((i) => [i.path[0], i.message]);
    expect(errors({ place: '', at: '2026-11-27T18:00:00' })).toEqual([
      ['place', 'deals.meeting.errors.placeRequired'],
      ['at', 'deals.meeting.errors.at'],
    ]);
    expect(errors({ place: 'x'.repeat(201), at: '2026-11-27T18:00:00Z' })).toEqual([
      ['place', 'deals.meeting.errors.placeTooLong'],
    ]);
  });
});
