import { ActionIcon, Group, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useId, useRef } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { SHELF_SCROLL_PX } from '@shared/marketplaceConstants';
import type { ListingCard } from '@shared/marketplace';
import { BookCard } from '../listings';
import classes from '../../components/Shelf.module.css';

/** The width of a shelf item (components/Shelf.module.css). */
const SHELF_COVER_SIZES = '(max-width: 36em) 148px, 168px';

/** A horizontal shelf of up to 12 books; previous/next scroll it by 300 px. */
export function Shelf({
  title,
  items,
  priority,
}: {
  title: string;
  items: ListingCard[];
  /** The first shelf: its first covers are above the fold. */
  priority?: boolean;
}) {
  const { t } = useTranslation();
  const row = useRef<HTMLUListElement>(null);
  const headingId = useId();
  const scroll = (dir: -1 | 1) =>
    row.current?.scrollBy({ left: dir * SHELF_SCROLL_PX, behavior: 'smooth' });
  return (
    <section aria-labelledby={headingId} className={classes.shelf}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} fz="xl" id={headingId}>
          {title}
        </Title>
        <Group gap={6} wrap="nowrap">
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => scroll(-1)}
            aria-label={t('shelves.previous', { shelf: title })}
          >
            <IconChevronLeft size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => scroll(1)}
            aria-label={t('shelves.next', { shelf: title })}
          >
            <IconChevronRight size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
      <ul ref={row} className={classes.row} data-testid="shelf-row">
        {items.map((l, i) => (
          <li key={l.id} className={classes.item}>
            <BookCard listing={l} priority={priority && i < 2} coverSizes={SHELF_COVER_SIZES} />
          </li>
        ))}
      </ul>
    </section>
  );
}
