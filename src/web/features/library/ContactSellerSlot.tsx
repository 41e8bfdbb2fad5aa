import type { ListingDetail } from '@shared/marketplace';

/**
 * SLOT for the chats issue: the contact-seller button (contact to buy / to trade / seller, with a
 * message box) goes here. It must show only for active listings, send signed-out visitors to
 * /login?redirect_to=/library/book/{id}, and hide on the member's own listing.
 * Until then it renders nothing.
 */
export function ContactSellerSlot(_props: { listing: ListingDetail }) {
  return null;
}
