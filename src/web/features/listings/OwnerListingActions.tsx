import { lazy, Suspense } from 'react';
import type { ListingDetail } from '@shared/marketplace';
import { useSession } from '../../lib/session';

const OwnerListingPanel = lazy(() => import('./OwnerListingPanel'));

/**
 * The seller's edit, deactivate and delete on their own book's page; nothing for anyone else. The
 * panel (with the edit form) loads only for the seller, so the page stays light for readers.
 */
export function OwnerListingActions({ listing }: { listing: ListingDetail }) {
  const session = useSession();
  if (session.status !== 'signed-in' || session.user.id !== listing.seller.id) return null;
  return (
    <Suspense fallback={null}>
      <OwnerListingPanel listing={listing} />
    </Suspense>
  );
}
