import { Skeleton, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import shelfClasses from './Shelf.module.css';
import classes from './Skeletons.module.css';
import grid from './BookGrid.module.css';

/**
 * What is loading, drawn as its shape: grey cards of the real cards' size where the real ones
 * will be (nothing jumps when they arrive). The region says it is busy (aria-busy) and, for a
 * screen reader, "Loading..." once (role status); the grey shapes themselves are hidden from it.
 */
function LoadingRegion({ testId, children }: { testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={classes.region} aria-busy="true" data-testid={testId}>
      <VisuallyHidden role="status">{t('common.loading')}</VisuallyHidden>
      <div aria-hidden>{children}</div>
    </div>
  );
}

/** A BookCard's shape: the 2:3 cover, title, author, badge and price, condition. */
function BookCardSkeleton() {
  return (
    <div className={classes.card} data-testid="book-card-skeleton">
      <Skeleton radius="sm" className={classes.cover} />
      <div className={classes.body}>
        <div className={classes.line} style={{ height: 24.8 }}>
          <Skeleton height={14} width="85%" />
        </div>
        <div className={classes.line} style={{ height: 21.7 }}>
          <Skeleton height={10} width="60%" />
        </div>
        <div className={classes.row}>
          <Skeleton height={20} width={64} radius="xl" />
          <Skeleton height={12} width={40} />
        </div>
        <div className={classes.line} style={{ height: 18.6 }}>
          <Skeleton height={9} width="45%" />
        </div>
      </div>
    </div>
  );
}

/** The library's result grid while the first results load (its columns, as many cards). */
export function BookGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <LoadingRegion testId="book-grid-skeleton">
      <ul className={grid.grid}>
        {Array.from({ length: count }, (_, i) => (
          <li key={i}>
            <BookCardSkeleton />
          </li>
        ))}
      </ul>
    </LoadingRegion>
  );
}

/** Shelves (/buy, the home page) while they load: a heading and a row of cards each. */
export function ShelvesSkeleton({
  shelves = 2,
  perShelf = 6,
}: {
  shelves?: number;
  perShelf?: number;
}) {
  return (
    <LoadingRegion testId="shelves-skeleton">
      {Array.from({ length: shelves }, (_, s) => (
        <div
          key={s}
          className={shelfClasses.shelf}
          style={{ marginBottom: 'var(--mantine-spacing-lg)' }}
        >
          <div className={classes.shelfHead}>
            <Skeleton height={22} width={180} />
            <Skeleton height={34} width={76} />
          </div>
          <ul className={shelfClasses.row} style={{ overflow: 'hidden' }}>
            {Array.from({ length: perShelf }, (_, i) => (
              <li key={i} className={shelfClasses.item}>
                <BookCardSkeleton />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </LoadingRegion>
  );
}

/** A feed while its first page loads: post cards (author, book, a few lines, actions). */
export function PostListSkeleton({ count = 3 }: { count?: number }) {
  return (
    <LoadingRegion testId="post-list-skeleton">
      <ul className={classes.stack}>
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className={classes.post} data-testid="post-card-skeleton">
            <div className={classes.postHead}>
              <Skeleton height={40} circle />
              <div style={{ flex: 1 }}>
                <Skeleton height={12} width="35%" mb={8} />
                <Skeleton height={9} width="20%" />
              </div>
            </div>
            <div className={classes.postBook}>
              <Skeleton height={72} width={48} radius="sm" />
              <div style={{ flex: 1, paddingTop: 4 }}>
                <Skeleton height={9} width="15%" mb={8} />
                <Skeleton height={12} width="45%" mb={8} />
                <Skeleton height={10} width="30%" />
              </div>
            </div>
            <Skeleton height={10} width="95%" />
            <Skeleton height={10} width="80%" />
            <Skeleton height={18} width={70} radius="xl" />
            <Skeleton height={28} width={160} />
          </li>
        ))}
      </ul>
    </LoadingRegion>
  );
}
