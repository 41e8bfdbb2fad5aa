import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBooks, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { OwnListingCard } from '@shared/marketplace';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AddBookModal, type AddBookStep } from './AddBookModal';
import { useMyListings, useSetListingStatus } from './api';
import { notifyError } from './errors';
import { MyBookCard, type MyBookAction } from './MyBookCard';
import { CompleteListingModal, DeleteListingModal, EditListingModal } from './MyBooksDialogs';
import { QuickActions } from './QuickActions';
import { QueryStatus } from '../../components/AsyncSection';
import { BundleRuleSettings } from '../deals';

/** /profile/:userId/books: the owner's listings, all statuses, newest first. */
export default function MyBooksPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('myBooks.pageTitle'));
  const session = useSession();
  const listings = useMyListings(session.status === 'signed-in');
  const setStatus = useSetListingStatus();
  const [addStep, setAddStep] = useState<AddBookStep | null>(null);
  const [editing, setEditing] = useState<OwnListingCard | null>(null);
  const [deleting, setDeleting] = useState<OwnListingCard | null>(null);
  const [completing, setCompleting] = useState<OwnListingCard | null>(null);

  const onAction = (action: MyBookAction, listing: OwnListingCard) => {
    if (action === 'edit') setEditing(listing);
    else if (action === 'delete') setDeleting(listing);
    else if (action === 'complete') setCompleting(listing);
    else
      setStatus.mutate(
        { id: listing.id, status: listing.isActive ? 'unavailable' : 'available' },
        { onError: (err) => notifyError(err, 'status', t) },
      );
  };

  const items = listings.data?.items ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('myBooks.title')}
        </Title>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setAddStep('choose')}
        >
          {t('myBooks.addBook')}
        </Button>
      </Group>
      <QuickActions onAdd={setAddStep} />
      <QueryStatus query={listings} errorTitle={t('myBooks.errors.load')} />
      {listings.isSuccess && items.length === 0 && (
        <Stack align="center" py="xl" gap="xs" ta="center">
          <IconBooks size={48} stroke={1.2} aria-hidden />
          <Title order={2} fz="lg">
            {t('myBooks.empty.title')}
          </Title>
          <Text c="dimmed">{t('myBooks.empty.text')}</Text>
        </Stack>
      )}
      {items.length > 0 && (
        <section aria-label={t('myBooks.listLabel')}>
          <Text size="sm" c="dimmed" mb="xs">
            {t('myBooks.count', { count: items.length })}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            {items.map((l) => (
              <MyBookCard
                key={l.id}
                listing={l}
                busy={setStatus.isPending && setStatus.variables?.id === l.id}
                onAction={onAction}
              />
            ))}
          </SimpleGrid>
        </section>
      )}
      {/* A buyer may bundle several of these books: the seller's shipping rule for that. */}
      {items.length > 0 && <BundleRuleSettings />}
      <AddBookModal step={addStep} onStepChange={setAddStep} onClose={() => setAddStep(null)} />
      <EditListingModal listing={editing} onClose={() => setEditing(null)} />
      <DeleteListingModal listing={deleting} onClose={() => setDeleting(null)} />
      <CompleteListingModal listing={completing} onClose={() => setCompleting(null)} />
    </Stack>
  );
}
