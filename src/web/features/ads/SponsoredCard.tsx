import { Anchor, Badge, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { AdCard, AdPlacement, SlotAd } from '@shared/schemas/ads';
import { BookCover } from '../../components/BookCover';
import { ReportMenu } from '../moderation';
import { useSlotAds, type SlotContext } from './api';
import { sponsorName, adImageSrc } from './model';
import { sendAdEvent, useAdImpression } from './tracking';
import classes from './SponsoredCard.module.css';

/** At most this many sponsored cards in one list (the slot endpoint's own maximum). */
const FEED_SLOTS = 12;

export type SponsoredLayout = 'grid' | 'shelf' | 'wide';

/** Why the reader sees it: the ad's genre and keywords (and what matched their search). */
function Reason({ ad }: { ad: AdCard | SlotAd }) {
  const { t } = useTranslation();
  const genre = t(`genres.${ad.genre}`);
  const matched = 'reasons' in ad ? ad.reasons.matchedKeywords : [];
  const keywords = (matched.length ? matched : ad.keywords).slice(0, 5).join(', ');
  return (
    <Text size="xs" c="dimmed" lineClamp={3} data-testid="sponsored-reason">
      {keywords
        ? t('ads.slot.whyKeywords', { genre, keywords })
        : t('ads.slot.whyGenre', { genre })}
    </Text>
  );
}

/**
 * One sponsored book, always labelled as such, saying whom it is promoted for and why it is
 * shown. Opening it counts a click; half of it on screen for a second counts an impression.
 */
export function SponsoredAdCard({
  ad,
  placement,
  layout = 'grid',
}: {
  ad: AdCard | SlotAd;
  placement: AdPlacement;
  layout?: SponsoredLayout;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  useAdImpression(ref, ad.id, placement);
  const sponsor = sponsorName(ad.sponsor);
  return (
    <Card
      ref={ref as never}
      component="article"
      withBorder
      padding="sm"
      className={classes.card}
      data-layout={layout}
      data-testid="sponsored-card"
      aria-label={t('ads.slot.label', { title: ad.title })}
    >
      {/* Wraps on a narrow card (a shelf on a phone) rather than cutting the label. */}
      <Group gap={6} mb={6} wrap="wrap" justify="space-between">
        {/* The label says what it is and leads to every promoted book. */}
        <Badge
          component={Link}
          to="/promoted"
          variant="filled"
          color="dark"
          size="sm"
          radius="sm"
          aria-label={t('ads.slot.sponsoredLink')}
          // Above the title's overlay, which makes the whole card open the ad.
          style={{ cursor: 'pointer', position: 'relative', zIndex: 1, flexShrink: 0 }}
        >
          {t('ads.slot.sponsored')}
        </Badge>
        <ReportMenu kind="ad" id={ad.id} label={t('ads.slot.more', { title: ad.title })} />
      </Group>
      <div className={classes.body}>
        <div className={classes.cover}>
          <BookCover url={adImageSrc(ad.coverImageUrl)} title={ad.title} author={sponsor} />
        </div>
        <Stack gap={4} className={classes.text}>
          <Anchor
            component={Link}
            to={`/ads/${ad.id}`}
            state={{ placement }}
            onClick={() => sendAdEvent(ad.id, 'click', placement)}
            fw={600}
            c="inherit"
            lineClamp={2}
            className={classes.title}
          >
            {ad.title}
          </Anchor>
          <Text size="xs" c="dimmed">
            {t('ads.slot.onBehalf', { sponsor })}
          </Text>
          <Reason ad={ad} />
        </Stack>
      </div>
    </Card>
  );
}

/**
 * A slot: asks the server for one ad matching what the reader looks at (genre, search) and
 * renders nothing when none may run. `reserve` holds the slot's space while it loads.
 */
export default function SponsoredCard({
  placement,
  genre,
  q,
  reserve = false,
  layout,
  item = false,
  nth,
}: SlotContext & {
  placement: AdPlacement;
  reserve?: boolean;
  layout?: SponsoredLayout;
  /** Wrapped in an <li> (a slot inside a list of results); nothing at all when no ad runs. */
  item?: boolean;
  /**
   * The slot's rank when a list shows several (the feed: one every 10 posts). The slots of one
   * list share one request for up to FEED_SLOTS ads and each shows its own, so none repeats;
   * past the ads that may run, a slot shows nothing.
   */
  nth?: number;
}) {
  const slot = useSlotAds({ placement, genre, q, limit: nth === undefined ? 1 : FEED_SLOTS });
  const ad = slot.data?.items[nth ?? 0];
  let content: React.ReactNode = null;
  if (ad) content = <SponsoredAdCard ad={ad} placement={placement} layout={layout} />;
  else if (reserve && slot.isPending)
    content = <Skeleton className={classes.reserve} data-layout={layout} aria-hidden />;
  return item && content ? <li>{content}</li> : content;
}
