import type { ListingDetail } from '@shared/marketplace';
import { ContactSeller } from '../chats';

/** The contact-seller control of the book detail (the chats feature owns it). */
export function ContactSellerSlot({ listing }: { listing: ListingDetail }) {
  return <ContactSeller listing={listing} />;
}
