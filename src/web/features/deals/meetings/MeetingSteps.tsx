import type { Deal } from '@shared/schemas/deals';

/**
 * Hand to hand inside the deal's card (issue 22 item 2): a meeting proposed, countered, accepted,
 * and each side's confirmation. To be built here.
 */
export function MeetingSteps(_props: { deal: Deal }) {
  return null;
}
