import { Button, Center, Stack, Text } from '@mantine/core';
import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PostListSkeleton } from '../../components/Skeletons';
import { SponsoredCard } from '../ads';
import { PostCard } from './PostCard';
import type { Post, PostPage } from './types';
import classes from './community.module.css';

/** The feed shows one sponsored card after every this many posts. */
const SPONSORED_EVERY = 10;

/**
 * A list of posts with the feed's states: post-shaped skeletons while the first page loads, the error panel
 * (title, error text, try again), the empty state, the cards, and load more. Posts in `extra`
 * (just written here) come first, in the list's fresher copy when it holds them too.
 */
export function FeedList({
  query,
  me,
  empty,
  label,
  onEdit,
  extra = [],
  onDeleted,
  sponsored = false,
  landOn = null,
}: {
  query: UseInfiniteQueryResult<InfiniteData<PostPage>, Error>;
  me: string | null;
  empty: ReactNode;
  /** The list's accessible name. */
  label: string;
  onEdit: (post: Post) => void;
  extra?: Post[];
  onDeleted?: (id: string) => void;
  /** One sponsored card after every SPONSORED_EVERY posts (the community feed's tabs). */
  sponsored?: boolean;
  /** The post just published here: its author lands on it (scrolled to and focused). */
  landOn?: string | null;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <PostListSkeleton />;
  if (query.isError)
    return (
      <ErrorAlert title={t('community.errors.title')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('community.errors.failedToLoadPosts')}</Text>
          {query.error.message &&
            query.error.message !== t('community.errors.failedToLoadPosts') && (
              <Text size="sm" c="dimmed">
                {query.error.message}
              </Text>
            )}
          <Button size="xs" variant="default" onClick={() => query.refetch()}>
            {t('community.errors.tryAgain')}
          </Button>
        </Stack>
      </ErrorAlert>
    );
  // Pages are offsets: a post may come twice when the list moved between two pages.
  const loaded = [
    ...new Map(query.data.pages.flatMap((p) => p.items).map((p) => [p.id, p])).values(),
  ];
  const byId = new Map(loaded.map((p) => [p.id, p]));
  const top = new Set(extra.map((p) => p.id));
  // The list's copy of a post written here is fresher (likes, comments) than the one kept.
  const posts = [...extra.map((p) => byId.get(p.id) ?? p), ...loaded.filter((p) => !top.has(p.id))];
  if (posts.length === 0) return <>{empty}</>;
  return (
    <Stack gap="md">
      <Stack component="ul" gap="md" className={classes.list} aria-label={label}>
        {posts.map((post, i) => (
          <Fragment key={post.id}>
            <li>
              <PostCard
                post={post}
                me={me}
                onEdit={onEdit}
                onDeleted={onDeleted && (() => onDeleted(post.id))}
                landed={post.id === landOn}
              />
            </li>
            {sponsored && (i + 1) % SPONSORED_EVERY === 0 && (
              <SponsoredCard
                item
                placement="community"
                layout="wide"
                nth={(i + 1) / SPONSORED_EVERY - 1}
              />
            )}
          </Fragment>
        ))}
      </Stack>
      {query.hasNextPage && (
        <Center>
          <Button
            variant="default"
            loading={query.isFetchingNextPage}
            onClick={() => query.fetchNextPage()}
          >
            {t('community.loadMore')}
          </Button>
        </Center>
      )}
      {query.isFetchNextPageError && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert" ta="center">
          {t('community.errors.failedToLoadPosts')}
        </Text>
      )}
    </Stack>
  );
}
