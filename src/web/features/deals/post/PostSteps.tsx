import type { Deal } from '@shared/schemas/deals';

/**
 * Sale by post inside the deal's card (issue 22 item 1): the address, shipping with tracking,
 * receipt or a problem. To be built here.
 */
export function PostSteps(_props: { deal: Deal }) {
  return null;
}
