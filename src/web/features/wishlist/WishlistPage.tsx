import { Anchor, Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowsExchange, IconHeart, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useParams } from '@web/lib/router';
import { WISHLIST_PAGE_SIZE, type WishlistItem } from '@shared/schemas/wishlist';
import type { CatalogueBook } from '@shared/marketplace';
import { formatMoney } from '@shared/money';
import { CatalogueSearch } from '../catalogue';
import { BookCover } from '../../components/BookCover';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AsyncSection, EmptyState } from '../../components/AsyncSection';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useAddWish, useRemoveWish, useWishlist, useWishlistLive } from './api';
import { PageNumbers } from '../../components/PageNumbers';
import { pageCount } from '../../lib/paging';

/** /profile/:userId/wishlist — the member's default list, an add panel and the items. */
export default function WishlistPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('wishlist.pageTitle'));
  const { userId = '' } = useParams();
  const [page, setPage] = useState(1);
  const wishlist = useWishlist(userId, page);
  useWishlistLive();
  const add = useAddWish();
  const remove = useRemoveWish();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const choose = (book: CatalogueBook) => {
    setStatus(null);
    add.mutate(book.id, {
      onSuccess: () => {
        setStatus({ ok: true, text: t('wishlist.add.added', { title: book.title }) });
        setPage(1);
      },
      onError: (err) =>
        setStatus({ ok: false, text: err.message || t('wishlist.errors.addFailed') }),
    });
  };
  const drop = (item: WishlistItem) => {
    setStatus(null);
    remove.mutate(
      { id: item.id, bookId: item.book?.id ?? null },
      {
        onSuccess: () =>
          setStatus({ ok: true, text: t('wishlist.items.removed', { title: item.title }) }),
        onError: (err) =>
          setStatus({ ok: false, text: err.message || t('wishlist.errors.removeFailed') }),
      },
    );
  };

  const data = wishlist.data;
  const list = data?.wishlist;
  const pages = data ? pageCount(data.total, WISHLIST_PAGE_SIZE) : 1;
  return (
    <Stack gap="xl">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {!list || list.isDefault ? t('wishlist.defaultName') : list.name}
        </Title>
        <Text c="dimmed">
          {!list || list.isDefault ? t('wishlist.defaultDescription') : list.description}
          {data && data.total > 0 && ` · ${t('wishlist.count', { count: data.total })}`}
        </Text>
        <Anchor component={Link} to={`/profile/${userId}/trades`} size="sm">
          <Group gap={4} component="span">
            <IconArrowsExchange size={16} aria-hidden />
            {t('wishlist.tradesLink')}
          </Group>
        </Anchor>
      </div>

      <Paper withBorder p="md" component="section" aria-labelledby="wishlist-add">
        <Title order={2} fz="lg" id="wishlist-add" mb="sm">
          {t('wishlist.add.heading')}
        </Title>
        <CatalogueSearch
          label={t('wishlist.add.label')}
          description={t('wishlist.add.hint')}
          onSelect={choose}
        />
        <div aria-live="polite" role="status">
          {add.isPending && (
            <Text size="sm" mt="xs" c="dimmed">
              {t('wishlist.add.adding')}
            </Text>
          )}
          {status?.ok && (
            <Text size="sm" mt="xs" fw={500} data-testid="wishlist-status">
              {status.text}
            </Text>
          )}
        </div>
        {status && !status.ok && (
          <ErrorAlert mt="sm" data-testid="wishlist-error">
            {status.text}
          </ErrorAlert>
        )}
      </Paper>

      <section aria-labelledby="wishlist-items">
        <Title order={2} fz="xl" id="wishlist-items" mb="sm">
          {t('wishlist.items.label')}
        </Title>
        <AsyncSection
          query={wishlist}
          errorTitle={t('wishlist.errors.loadFailed')}
          showErrorMessage
          retryLabel={t('wishlist.reload')}
          isEmpty={(d) => d.total === 0}
          empty={
            <EmptyState
              icon={<IconHeart size={48} stroke={1.2} aria-hidden />}
              order={3}
              title={t('wishlist.empty.title')}
              text={t('wishlist.empty.text')}
            />
          }
        >
          {(d) => (
            <>
              {d.items.length > 0 && (
                <SimpleGrid
                  cols={{ base: 2, xs: 3, md: 3, lg: 4 }}
                  spacing={{ base: 'sm', sm: 'md' }}
                  component="ul"
                  aria-label={t('wishlist.items.label')}
                  style={{ listStyle: 'none', padding: 0, margin: 0 }}
                >
                  {d.items.map((item) => (
                    <li key={item.id}>
                      <WishedBook item={item} onRemove={drop} busy={remove.isPending} />
                    </li>
                  ))}
                </SimpleGrid>
              )}
              {pages > 1 && (
                <PageNumbers mt="md" pages={pages} page={page} onChange={setPage} siblings={0} />
              )}
            </>
          )}
        </AsyncSection>
      </section>
    </Stack>
  );
}

function WishedBook({
  item,
  onRemove,
  busy,
}: {
  item: WishlistItem;
  onRemove: (item: WishlistItem) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const cover = item.work ?? item.book;
  return (
    <Card
      withBorder
      padding="sm"
      h="100%"
      component="article"
      aria-label={item.title}
      data-testid="wished-item"
    >
      <Card.Section>
        <BookCover url={cover?.coverUrl ?? null} title={item.title} author={item.author} />
      </Card.Section>
      <Stack gap={4} mt="sm" justify="space-between" style={{ flex: 1 }}>
        <div>
          <Text fw={600} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={1}>
            {item.author}
          </Text>
          {item.book?.isbn && (
            <Text size="xs" c="dimmed">
              {t('wishlist.items.isbn', { isbn: item.book.isbn })}
            </Text>
          )}
          {item.work ? (
            <WishedWork item={item} work={item.work} />
          ) : item.newestListingId ? (
            <Anchor component={Link} to={`/library/book/${item.newestListingId}`} size="sm">
              {t('wishlist.items.available', { count: item.availableListings })}:{' '}
              {t('wishlist.items.seeListing')}
            </Anchor>
          ) : (
            <Text size="xs" c="dimmed">
              {t('wishlist.items.notListed')}
            </Text>
          )}
        </div>
        <Button
          variant="default"
          size="xs"
          mt="xs"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => onRemove(item)}
          disabled={busy}
          aria-label={t('wishlist.items.removeLabel', { title: item.title })}
        >
          {t('wishlist.items.remove')}
        </Button>
      </Stack>
    </Card>
  );
}

/** A wished work: every edition and language; its copies now and the cheapest, to its page. */
function WishedWork({
  item,
  work,
}: {
  item: WishlistItem;
  work: NonNullable<WishlistItem['work']>;
}) {
  const { t, i18n } = useTranslation();
  const count = item.availableListings;
  const price =
    work.from !== null && work.currency
      ? formatMoney(work.from, work.currency, i18n.language)
      : null;
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {t('wishlist.items.anyEdition')}
      </Text>
      {count > 0 ? (
        <Anchor
          component={Link}
          to={`/books/${work.id}`}
          size="sm"
          data-testid="wished-work-copies"
        >
          {price
            ? t('wishlist.items.copiesFrom', { count, price })
            : t('wishlist.items.copies', { count })}
        </Anchor>
      ) : (
        <Text size="xs" c="dimmed">
          {t('wishlist.items.workNotListed')}
        </Text>
      )}
    </Stack>
  );
}
