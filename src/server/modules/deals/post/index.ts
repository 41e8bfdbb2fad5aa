import type { DealPost } from '@shared/schemas/dealPost';
import type { DealPart } from '../parts';

/**
 * Sale by post (issue 22 item 1): address, shipped with a carrier and tracking, received or a
 * problem within the windows, completed by itself at the end. To be built here.
 */
export const postPart: DealPart<DealPost> = {
  method: 'post',
  async state() {
    return {};
  },
  async cancelRefusal() {
    return null;
  },
  register() {},
};
