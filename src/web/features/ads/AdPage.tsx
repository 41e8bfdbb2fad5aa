import {
  Anchor,
  Badge,
  Button,
  Container,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { PageLoader } from '../../components/PageLoader';
import {
  IconArrowLeft,
  IconBook,
  IconExternalLink,
  IconMovie,
  IconShoppingCart,
} from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useLocation, useParams } from '@web/lib/router';
import { AD_PURCHASE_STORES, type AdPlacement, type Advertisement } from '@shared/schemas/ads';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { BookCover } from '../../components/BookCover';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatMoney } from '@shared/money';
import { ReportButton } from '../moderation';
import { AdStatusBadge } from './badges';
import { useAd } from './api';
import { adErrorMessage } from './errors';
import { sponsorName, adImageSrc, adLinkHref } from './model';
import { Reviews } from './Reviews';
import { sendAdEvent } from './tracking';

function Detail({ label, value }: { label: string; value: string | number | null | undefined }) {
  if (value === null || value === undefined || value === '') return null;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0}>
        {value}
      </Text>
    </Group>
  );
}

function External({
  href,
  children,
  icon,
  onOpen,
  variant = 'default',
}: {
  href: string;
  children: React.ReactNode;
  icon: React.ReactNode;
  onOpen?: () => void;
  variant?: 'filled' | 'default';
}) {
  const { t } = useTranslation();
  const safe = adLinkHref(href);
  if (!safe) return null;
  return (
    <Button
      component="a"
      href={safe}
      target="_blank"
      rel="noopener noreferrer sponsored"
      variant={variant}
      leftSection={icon}
      rightSection={<IconExternalLink size={14} aria-hidden />}
      onClick={onOpen}
    >
      {children}
      <VisuallyHidden>{` (${t('ads.page.newTab')})`}</VisuallyHidden>
    </Button>
  );
}

/** /ads/{id}: the promoted book, its author, where to buy it, samples, and readers' reviews. */
export default function AdPage() {
  const { t } = useTranslation();
  const { adId } = useParams();
  const ad = useAd(adId);
  useDocumentTitle(ad.data?.title ?? t('ads.page.pageTitle'));
  if (ad.isPending) return <PageLoader />;
  if (ad.isError) {
    const missing = (ad.error as { status?: number }).status === 404;
    return (
      <Container size="sm" py="xl">
        <Stack>
          <Title order={1}>{t('ads.page.notFoundTitle')}</Title>
          <ErrorAlert>
            {missing ? t('ads.page.notFound') : adErrorMessage(ad.error, 'load', t)}
          </ErrorAlert>
          <Anchor component={Link} to="/promoted">
            {t('ads.page.toPromoted')}
          </Anchor>
        </Stack>
      </Container>
    );
  }
  return <AdDetail ad={ad.data} />;
}

function AdDetail({ ad }: { ad: Advertisement }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const placement: AdPlacement =
    (location.state as { placement?: AdPlacement } | null)?.placement ?? 'ad';
  const sponsor = sponsorName(ad.author);
  const price = formatMoney(ad.bookPrice, ad.currency, i18n.language);
  const links = AD_PURCHASE_STORES.filter((s) => ad.purchaseLinks[s]);
  const genre = t(`genres.${ad.genre}`);
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to="/promoted" size="sm">
          <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
          {t('ads.page.toPromoted')}
        </Anchor>
        <Grid gutter="xl">
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <BookCover
              url={adImageSrc(ad.coverImageUrl)}
              title={ad.title}
              author={sponsor}
              priority
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8 }}>
            <Stack gap="sm">
              <Group gap="xs">
                <Badge variant="filled" color="dark" radius="sm">
                  {t('ads.slot.sponsored')}
                </Badge>
                <Text size="sm" c="dimmed">
                  {t('ads.slot.onBehalf', { sponsor })}
                </Text>
              </Group>
              <Title order={1} fz={{ base: 28, sm: 36 }} style={{ overflowWrap: 'anywhere' }}>
                {ad.title}
              </Title>
              {ad.subtitle && (
                <Text fz="lg" c="dimmed">
                  {ad.subtitle}
                </Text>
              )}
              {ad.status === 'rejected' && (
                <ErrorAlert>
                  <Stack gap={4} align="flex-start">
                    <AdStatusBadge status="rejected" />
                    {ad.rejectionReason && (
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {t('ads.list.rejectedReason', { reason: ad.rejectionReason })}
                      </Text>
                    )}
                    <Text size="sm">{t('ads.list.rejectedHelp')}</Text>
                  </Stack>
                </ErrorAlert>
              )}
              <Text>
                {t('ads.page.by')}{' '}
                <Anchor component={Link} to={`/user/${ad.author.id}`} underline="always">
                  {sponsor}
                </Anchor>
              </Text>
              <ReportButton kind="ad" id={ad.id} ownerId={ad.authorId} />
              <Text size="sm" c="dimmed" data-testid="sponsored-reason">
                {ad.keywords.length
                  ? t('ads.slot.whyKeywords', {
                      genre,
                      keywords: ad.keywords.slice(0, 8).join(', '),
                    })
                  : t('ads.slot.whyGenre', { genre })}
              </Text>
              {price && (
                <Text fw={700} fz="xl">
                  {price}
                </Text>
              )}
              <Text style={{ whiteSpace: 'pre-line' }}>{ad.description}</Text>
              <Stack gap={2} component="dl" m={0}>
                <Detail label={t('ads.form.publisher')} value={ad.publisher} />
                <Detail label={t('ads.form.publicationYear')} value={ad.publicationYear} />
                <Detail label={t('ads.form.pageCount')} value={ad.pageCount} />
                <Detail label={t('ads.form.language')} value={t(`ads.languages.${ad.language}`)} />
                <Detail label={t('ads.form.isbn13')} value={ad.isbn13} />
                <Detail label={t('ads.form.targetAudience')} value={ad.targetAudience.join(', ')} />
              </Stack>
              {links.length > 0 && (
                <Paper withBorder p="md">
                  <Title order={2} fz="lg" mb="sm">
                    {t('ads.page.buy')}
                  </Title>
                  <Group gap="sm">
                    {links.map((store) => (
                      <External
                        key={store}
                        href={ad.purchaseLinks[store]!}
                        variant="filled"
                        icon={<IconShoppingCart size={16} aria-hidden />}
                        onOpen={() => sendAdEvent(ad.id, 'conversion', placement, store)}
                      >
                        {t(`ads.page.buyAt.${store}`)}
                      </External>
                    ))}
                  </Group>
                </Paper>
              )}
              {(ad.sampleChapterUrl || ad.trailerVideoUrl || ad.authorWebsiteUrl) && (
                <Group gap="sm">
                  {ad.sampleChapterUrl && (
                    <External href={ad.sampleChapterUrl} icon={<IconBook size={16} aria-hidden />}>
                      {t('ads.page.sampleChapter')}
                    </External>
                  )}
                  {ad.trailerVideoUrl && (
                    <External href={ad.trailerVideoUrl} icon={<IconMovie size={16} aria-hidden />}>
                      {t('ads.page.trailer')}
                    </External>
                  )}
                  {ad.authorWebsiteUrl && (
                    <External
                      href={ad.authorWebsiteUrl}
                      icon={<IconExternalLink size={16} aria-hidden />}
                    >
                      {t('ads.page.authorWebsite')}
                    </External>
                  )}
                </Group>
              )}
              {ad.author.bio && (
                <Paper withBorder p="md">
                  <Title order={2} fz="lg" mb={4}>
                    {t('ads.page.aboutAuthor', { author: sponsor })}
                  </Title>
                  <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                    {ad.author.bio}
                  </Text>
                </Paper>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
        <Reviews ad={ad} />
      </Stack>
    </Container>
  );
}
