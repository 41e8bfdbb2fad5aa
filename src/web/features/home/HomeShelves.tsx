import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { Shelf, shelfTitle } from '../library';
import { LinkButton } from '../../components/LinkButton';
import { ShelvesSkeleton } from '../../components/Skeletons';
import { useHomeShelves } from './useHomeShelves';

/**
 * The home page's books: just listed, best deals and a genre, from real listings (each card opens
 * its book page). Its own chunk, fetched with the texts of cards and shelves.
 */
export default function HomeShelves() {
  const { t } = useTranslation();
  const shelves = useHomeShelves();

  // The three shelves' shape while they load, so the feature cards below do not jump.
  if (shelves.isPending) return <ShelvesSkeleton shelves={3} />;
  if (shelves.isError)
    return (
      <Stack align="center" gap="xs" py="md">
        <Text c="dimmed">{shelves.error.message}</Text>
        <Button size="xs" variant="default" onClick={() => shelves.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </Stack>
    );
  if (shelves.data.shelves.length === 0)
    return (
      <Stack align="center" ta="center" gap="xs" py="md">
        <Text c="dimmed">{t('home.shelves.empty')}</Text>
        <LinkButton to="/sell" variant="default">
          {t('home.shelves.listFirst')}
        </LinkButton>
      </Stack>
    );
  return (
    <Stack gap="lg">
      {shelves.data.shelves.map((s, i) => (
        <Shelf key={s.key} title={shelfTitle(t, s.key)} items={s.items} priority={i === 0} />
      ))}
      <Group justify="flex-end">
        <Anchor component={Link} to="/buy" fw={600}>
          <Group gap={6} component="span">
            {t('home.shelves.all')}
            <IconArrowRight size={16} aria-hidden />
          </Group>
        </Anchor>
      </Group>
    </Stack>
  );
}
