import { Button } from '@mantine/core';
import { IconPackage, IconPackageOff } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../../lib/session';
import { useSellerAwayUntil } from '../../watching';
import { useBundle } from './store';

interface Bundlable {
  id: string;
  title: string;
  listingType: string;
  status: string;
  seller: { id: string };
}

/**
 * "Add to bundle" on a book of another member that is for sale and available: it joins the
 * bundle being built with that seller (kept in this tab until the offer is sent). Not while the
 * seller is on holiday: they take no offers until back (the page's notice says when).
 */
export function AddToBundleButton({ listing }: { listing: Bundlable }) {
  const { t } = useTranslation();
  const session = useSession();
  const bundle = useBundle(listing.seller.id);
  const signedIn = session.status === 'signed-in';
  const awayUntil = useSellerAwayUntil(signedIn ? listing.seller.id : undefined);
  if (awayUntil) return null;
  if (session.status !== 'signed-in' || session.user.id === listing.seller.id) return null;
  if (listing.listingType === 'trade' || listing.status !== 'available') return null;
  const inBundle = bundle.has(listing.id);
  return (
    <Button
      size="compact-sm"
      variant={inBundle ? 'light' : 'default'}
      leftSection={
        inBundle ? <IconPackageOff size={16} aria-hidden /> : <IconPackage size={16} aria-hidden />
      }
      aria-pressed={inBundle}
      // A toggle, named the same either way (as the watch button): pressed while in the bundle.
      aria-label={t('deals.bundle.addNamed', { title: listing.title })}
      disabled={!inBundle && bundle.full}
      onClick={() =>
        inBundle ? bundle.remove(listing.id) : bundle.add({ id: listing.id, title: listing.title })
      }
      w="fit-content"
    >
      {inBundle ? t('deals.bundle.inBundle') : t('deals.bundle.add')}
    </Button>
  );
}
