import { Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { listingChanges, type ListingCard } from '@shared/marketplace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EditDialog } from '../../components/EditDialog';
import { ApiError } from '../../lib/api';
import { useCompleteListing, useDeleteListing, useListing, useUpdateListing } from './api';
import { listingErrorMessage, notifyError, notifySuccess } from './errors';
import { ListingForm } from './ListingForm';
import { FormActions } from '../../components/FormActions';

/** Edit: the full form, pre-filled from the listing's detail; only what changed is sent. */
export function EditListingModal({
  listing,
  onClose,
}: {
  listing: ListingCard | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useListing(listing?.id);
  const update = useUpdateListing();
  return (
    <EditDialog
      opened={!!listing}
      onClose={onClose}
      title={t('myBooks.edit.title')}
      pending={detail.isPending}
      error={detail.isError ? t('myBooks.errors.load') : null}
    >
      {detail.data && listing && (
        <ListingForm
          key={detail.data.id + detail.data.updatedAt}
          listing={detail.data}
          submitLabel={t('myBooks.edit.save')}
          onCancel={onClose}
          onSubmit={async (values) => {
            const body = listingChanges(values, detail.data);
            try {
              if (Object.keys(body).length > 0) await update.mutateAsync({ id: listing.id, body });
              notifySuccess(t('myBooks.edit.saved'));
              onClose();
            } catch (err) {
              notifyError(err, 'update', t);
              throw err;
            }
          }}
        />
      )}
    </EditDialog>
  );
}

export function DeleteListingModal({
  listing,
  onClose,
  onDeleted,
}: {
  listing: ListingCard | null;
  onClose: () => void;
  /** After the deletion (the book's own page leaves for the member's books). */
  onDeleted?: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteListing();
  return (
    <ConfirmDialog
      opened={!!listing}
      onClose={onClose}
      title={t('myBooks.delete.title')}
      confirmLabel={t('myBooks.delete.confirm')}
      loading={remove.isPending}
      onConfirm={async () => {
        if (!listing) return;
        try {
          await remove.mutateAsync(listing.id);
          notifySuccess(t('myBooks.delete.done', { title: listing.title }));
          onClose();
          onDeleted?.();
        } catch (err) {
          notifyError(err, 'delete', t);
        }
      }}
    >
      {t('myBooks.delete.text', { title: listing?.title ?? '' })}
    </ConfirmDialog>
  );
}

/** Mark as sold or traded to a member, chosen by username; records the transaction. */
export function CompleteListingModal({
  listing,
  onClose,
}: {
  listing: ListingCard | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const complete = useCompleteListing();
  const [kind, setKind] = useState<'sale' | 'trade'>('sale');
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [lastId, setLastId] = useState<string | null>(null);
  // Reset the form when another listing is opened.
  if (listing && listing.id !== lastId) {
    setLastId(listing.id);
    setKind(listing.listingType === 'trade' ? 'trade' : 'sale');
    setUsername('');
    setError(null);
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!listing) return;
    if (!username.trim()) return setError(t('listings.validation.usernameRequired'));
    try {
      const result = await complete.mutateAsync({
        id: listing.id,
        body: { kind, counterpartUsername: username.trim() },
      });
      // Without their accepted offer, the member must confirm before the exchange counts.
      notifySuccess(
        result.outcome === 'pending'
          ? t('myBooks.complete.pending', { name: username.trim().replace(/^@/, '') })
          : t(kind === 'sale' ? 'myBooks.complete.doneSale' : 'myBooks.complete.doneTrade', {
              title: listing.title,
            }),
      );
      onClose();
    } catch (err) {
      setError(
        err instanceof ApiError && err.fields?.counterpartUsername
          ? err.fields.counterpartUsername
          : listingErrorMessage(err, 'status', t),
      );
    }
  };
  return (
    <Modal
      opened={!!listing}
      onClose={onClose}
      title={t('myBooks.complete.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('myBooks.complete.text', { title: listing?.title ?? '' })}</Text>
          <NativeSelect
            label={t('myBooks.complete.kind')}
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as 'sale' | 'trade')}
            data={[
              { value: 'sale', label: t('myBooks.complete.sale') },
              { value: 'trade', label: t('myBooks.complete.trade') },
            ]}
          />
          <TextInput
            label={t('myBooks.complete.username')}
            description={t('myBooks.complete.usernameHint')}
            withAsterisk
            autoComplete="off"
            value={username}
            onChange={(e) => {
              setUsername(e.currentTarget.value);
              setError(null);
            }}
            error={error}
          />
          <FormActions
            cancelLabel={t('common.cancel')}
            submitLabel={t('myBooks.complete.confirm')}
            onCancel={onClose}
            loading={complete.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
