import {
  Anchor,
  Avatar,
  Button,
  Container,
  Grid,
  Group,
  Paper,
  Spoiler,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { PageLoader } from '../../components/PageLoader';
import { IconArrowLeft, IconBooks } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useDeferredValue } from 'react';
import { formatDate } from '@shared/format';
import { initialsOf } from '@shared/identicon';
import { BookCover } from '../../components/BookCover';
import { formatMoney } from '@shared/money';
import { OwnerListingActions, StatusBadge, TypeBadge, useListing } from '../listings';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ContactSellerSlot } from './ContactSellerSlot';
import { WishlistHeart } from '../wishlist';
import { SellerAwayNotice, WatchButton, WatcherCount } from '../watching';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSession } from '../../lib/session';
import { ReportButton } from '../moderation';
import { RelatedShelves } from './RelatedShelves';
import { WorkCopiesLink } from './WorkCopiesLink';
import { AddToBundleButton, BundlePanel } from '../deals';
import { useMoneyFormatWarmUp } from './idle';

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  if (value === null || value === undefined || value === '') return null;
  return (
    <>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} fw={500}>
        {value}
      </Text>
    </>
  );
}

/** /library/book/:bookId */
export default function BookDetailPage() {
  const { t, i18n } = useTranslation();
  const { bookId } = useParams();
  const navigate = useNavigate();
  const listing = useListing(bookId);
  const session = useSession();
  const me = session.status === 'signed-in' ? session.user.id : null;
  // The page renders in a background pass that yields to the browser, not in one long task the
  // moment the listing arrives (a query's update is otherwise rendered at once, uninterrupted).
  const book = useDeferredValue(listing.data);
  useMoneyFormatWarmUp(i18n.language);
  useDocumentTitle(t('library.pageTitle'), listing.data?.title);

  // History back when we came from inside the app, else the library.
  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/library');
  };

  const backBar = (
    <Group justify="space-between" mb="md">
      <Button
        variant="subtle"
        leftSection={<IconArrowLeft size={16} aria-hidden />}
        onClick={goBack}
      >
        {t('bookDetail.back')}
      </Button>
    </Group>
  );

  const errorPanel = (title: string, text: string) => (
    <Container size="sm" py="xl">
      {backBar}
      <ErrorAlert title={title}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{text}</Text>
          <Button component={Link} to="/library" variant="default" size="xs">
            {t('bookDetail.backToLibrary')}
          </Button>
        </Stack>
      </ErrorAlert>
    </Container>
  );

  if (!bookId) return errorPanel(t('bookDetail.errors.noId'), t('bookDetail.errors.notFoundText'));
  if (listing.isPending || (!book && !listing.isError)) return <PageLoader />;
  if (listing.isError) {
    const missing = listing.error instanceof ApiError && listing.error.status === 404;
    return missing
      ? errorPanel(t('bookDetail.errors.notFound'), t('bookDetail.errors.notFoundText'))
      : errorPanel(t('bookDetail.errors.loadFailed'), listing.error.message);
  }

  if (!book) return null;
  const price = formatMoney(book.price, book.currency, i18n.language);
  const shipping =
    book.shippingCost !== null
      ? formatMoney(book.shippingCost, book.currency, i18n.language)
      : null;
  return (
    <Container size="lg" py="xl">
      {backBar}
      <Grid gutter="xl">
        <Grid.Col span={{ base: 12, sm: 5, md: 4 }}>
          <BookCover
            url={book.coverUrl}
            title={book.title}
            author={book.author}
            sizes="(min-width: 62em) 360px, (min-width: 48em) 40vw, 100vw"
            priority
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 7, md: 8 }}>
          <Stack gap="md">
            <div>
              <Title order={1} fz={{ base: 26, sm: 34 }} style={{ overflowWrap: 'anywhere' }}>
                {book.title}
              </Title>
              <Text size="lg" c="dimmed">
                {book.author}
              </Text>
            </div>
            <Group gap="xs">
              <TypeBadge type={book.listingType} />
              <StatusBadge status={book.status} />
            </Group>
            {price && (
              <Text fz={28} fw={700} data-testid="detail-price">
                {price}
                {book.isNegotiable && (
                  <Text component="span" size="sm" c="dimmed" fw={400} ml="xs">
                    {t('bookDetail.negotiable')}
                  </Text>
                )}
              </Text>
            )}
            <OwnerListingActions listing={book} />
            <WorkCopiesLink listingId={book.id} />
            <SellerAwayNotice sellerId={book.seller.id} kind="listing" />
            <ContactSellerSlot listing={book} />
            <AddToBundleButton listing={book} />
            <BundlePanel sellerId={book.seller.id} />
            <Group gap="xs">
              <WishlistHeart bookId={book.bookId} title={book.title} sellerId={book.seller.id} />
              <WatchButton listingId={book.id} title={book.title} sellerId={book.seller.id} />
            </Group>
            {me === book.seller.id && <WatcherCount listingId={book.id} />}
            <Paper withBorder p="md">
              <dl
                style={{
                  display: 'grid',
                  gridTemplateColumns: 'auto 1fr',
                  gap: '6px 16px',
                  margin: 0,
                }}
              >
                <Fact label={t('bookDetail.condition')} value={t(`conditions.${book.condition}`)} />
                <Fact label={t('bookDetail.genre')} value={t(`genres.${book.genre}`)} />
                <Fact label={t('bookDetail.type')} value={t(`listingTypes.${book.listingType}`)} />
                <Fact label={t('bookDetail.language')} value={book.language} />
                <Fact label={t('bookDetail.isbn')} value={book.isbn ?? book.book.isbn} />
                <Fact label={t('bookDetail.publisher')} value={book.book.publisher} />
                <Fact label={t('bookDetail.year')} value={book.book.year} />
                <Fact label={t('bookDetail.location')} value={book.location} />
                <Fact label={t('bookDetail.shipping')} value={shipping} />
                <Fact
                  label={t('bookDetail.listed')}
                  value={formatDate(book.createdAt, i18n.language)}
                />
              </dl>
            </Paper>
            {book.book.synopsis && (
              <section aria-labelledby="synopsis">
                <Title order={2} fz="lg" id="synopsis" mb={4}>
                  {t('bookDetail.synopsis')}
                </Title>
                <Spoiler
                  maxHeight={150}
                  showLabel={t('bookDetail.showMore')}
                  hideLabel={t('bookDetail.showLess')}
                >
                  <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                    {book.book.synopsis}
                  </Text>
                </Spoiler>
              </section>
            )}
            {book.description && (
              <section aria-labelledby="seller-notes">
                <Title order={2} fz="lg" id="seller-notes" mb={4}>
                  {t('bookDetail.sellerNotes')}
                </Title>
                <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {book.description}
                </Text>
              </section>
            )}
            <Paper withBorder p="md" component="section" aria-labelledby="seller-info">
              <Title order={2} fz="lg" id="seller-info" mb="sm">
                {t('bookDetail.seller')}
              </Title>
              <Group gap="sm" wrap="nowrap">
                <Avatar src={book.seller.avatarUrl} alt="" radius="xl" color="brown">
                  {initialsOf(book.seller.displayName)}
                </Avatar>
                <div>
                  <Anchor component={Link} to={`/user/${book.seller.id}`} fw={600}>
                    {book.seller.displayName}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {book.seller.username ? `@${book.seller.username} · ` : ''}
                    {t('bookDetail.memberSince', {
                      date: formatDate(book.seller.memberSince, i18n.language),
                    })}
                  </Text>
                </div>
              </Group>
            </Paper>
            <ReportButton kind="listing" id={book.id} ownerId={book.seller.id} />
            <Anchor component={Link} to="/library">
              <Group gap={6} component="span">
                <IconBooks size={16} aria-hidden />
                {t('bookDetail.backToLibrary')}
              </Group>
            </Anchor>
          </Stack>
        </Grid.Col>
      </Grid>
      <RelatedShelves listingId={book.id} />
    </Container>
  );
}
