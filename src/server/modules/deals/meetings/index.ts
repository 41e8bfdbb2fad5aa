import type { DealMeeting } from '@shared/schemas/dealMeeting';
import type { DealPart } from '../parts';

/**
 * Hand to hand (issue 22 item 2): a meeting proposed, countered and accepted; both confirm the
 * exchange, which completes the deal. To be built here.
 */
export const meetingPart: DealPart<DealMeeting> = {
  method: 'hand',
  async state() {
    return {};
  },
  async cancelRefusal() {
    return null;
  },
  register() {},
};
