import { Anchor, Badge, Group, Text, Title } from '@mantine/core';
import { Link } from '@web/lib/router';
import { useId } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { AD_SLOT_MAX } from '@shared/schemas/ads';
import { useSlotAds, type SlotContext } from './api';
import { SponsoredAdCard } from './SponsoredCard';
import classes from '../../components/Shelf.module.css';

/**
 * /buy: a shelf of sponsored books, headed and labelled as such; nothing when no ad may run.
 * Ads matching the genre the reader filters by come first (the server orders them).
 */
export default function SponsoredShelf({ genre, q }: SlotContext) {
  const { t } = useTranslation();
  const headingId = useId();
  const slot = useSlotAds({ placement: 'buy', genre, q, limit: AD_SLOT_MAX });
  const items = slot.data?.items ?? [];
  if (!items.length) return null;
  return (
    <section aria-labelledby={headingId} className={classes.shelf} data-testid="sponsored-shelf">
      <Group gap="sm" mb="xs" align="center">
        <Title order={2} fz="xl" id={headingId}>
          {t('ads.shelf.title')}
        </Title>
        <Badge variant="filled" color="dark" size="sm" radius="sm">
          {t('ads.slot.sponsored')}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {t('ads.shelf.note')}{' '}
        <Anchor component={Link} to="/promoted" size="sm" underline="always">
          {t('ads.shelf.all')}
        </Anchor>
      </Text>
      <ul className={classes.row}>
        {items.map((ad) => (
          <li key={ad.id} className={classes.item}>
            <SponsoredAdCard ad={ad} placement="buy" layout="shelf" />
          </li>
        ))}
      </ul>
    </section>
  );
}
