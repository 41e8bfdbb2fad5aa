import { Button, Group, Paper, Title } from '@mantine/core';
import { IconEdit, IconEye, IconEyeOff, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { ListingDetail } from '@shared/marketplace';
import { useNavigate } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useMyListings, useSetListingStatus } from './api';
import { notifyError } from './errors';
import { InDealNote } from './InDealNote';
import { DeleteListingModal, EditListingModal } from './MyBooksDialogs';

/**
 * The seller's own controls on their book's page: edit, deactivate (or activate) and delete, as
 * in My books. A book in an open deal shows why it offers none; a sold or traded one is never put
 * back on sale. Loaded for the seller only (OwnerListingActions).
 */
export default function OwnerListingPanel({ listing }: { listing: ListingDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const own = useMyListings();
  const setStatus = useSetListingStatus();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const card = own.data?.items.find((item) => item.id === listing.id);
  if (!card) return null;
  const finished = listing.status === 'sold' || listing.status === 'traded';
  const toggle = () =>
    setStatus.mutate(
      { id: listing.id, status: listing.isActive ? 'unavailable' : 'available' },
      { onError: (err) => notifyError(err, 'status', t) },
    );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="owner-actions">
      <Title order={2} fz="lg" id="owner-actions" mb="sm">
        {t('myBooks.owner.title')}
      </Title>
      {card.inOpenDeal ? (
        <InDealNote />
      ) : (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconEdit size={14} aria-hidden />}
            onClick={() => setEditing(true)}
          >
            {t('myBooks.actions.edit')}
          </Button>
          {!finished && (
            <Button
              size="xs"
              variant="default"
              loading={setStatus.isPending}
              leftSection={
                listing.isActive ? (
                  <IconEyeOff size={14} aria-hidden />
                ) : (
                  <IconEye size={14} aria-hidden />
                )
              }
              onClick={toggle}
            >
              {listing.isActive ? t('myBooks.actions.deactivate') : t('myBooks.actions.activate')}
            </Button>
          )}
          <Button
            size="xs"
            color="red"
            variant="light"
            c="#b02525"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => setDeleting(true)}
          >
            {t('myBooks.actions.delete')}
          </Button>
        </Group>
      )}
      <EditListingModal listing={editing ? card : null} onClose={() => setEditing(false)} />
      <DeleteListingModal
        listing={deleting ? card : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(`/profile/${listing.seller.id}/books`, { replace: true })}
      />
    </Paper>
  );
}
