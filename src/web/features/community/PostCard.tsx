import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { UserAvatar } from '../../components/UserAvatar';
import { BookCover } from '../../components/BookCover';
import { formatWhen } from './format';
import { LikeButton } from './LikeButton';
import { PostMenu } from './PostMenu';
import { PostText } from './PostText';
import { usePostLike } from './api';
import type { Post } from './types';

/** The image box: stored uploads fit in 1200×1800; the frame keeps a 4:3 space reserved. */
const POST_IMAGE_WIDTH = 640;
const POST_IMAGE_HEIGHT = 480;

export const postPath = (id: string) => `/community/posts/${id}`;
/**
 * Where the post's book leads: the page of its newest available listing when someone lists it,
 * else the library's search for its title (nobody sells or trades it right now).
 */
export const bookPath = (book: { title: string; listingId?: string | null }) =>
  book.listingId
    ? `/library/book/${book.listingId}`
    : `/library?${new URLSearchParams({ q: book.title })}`;

/**
 * A post: its author (or 'User info unavailable'), the book, the text as plain text, likes,
 * comments, the edited mark and time, and the owner's menu. `detail` on the post's own page,
 * where the text is the page's heading content and nothing links to itself.
 */
export function PostCard({
  post,
  me,
  detail = false,
  onEdit,
  onDeleted,
  landed = false,
}: {
  post: Post;
  me: string | null;
  detail?: boolean;
  onEdit: (post: Post) => void;
  onDeleted?: () => void;
  /** Just published here: scrolled to, focused and marked, so its author lands on it. */
  landed?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!landed) return;
    card.current?.scrollIntoView({ block: 'center' });
    card.current?.focus({ preventScroll: true });
  }, [landed]);
  const like = usePostLike(post.id);
  const own = !!me && post.isOwner;
  const headingId = `post-${post.id}-title`;
  const when = formatWhen(post.createdAt, t, i18n.language);
  return (
    <Card
      ref={card}
      withBorder
      padding="md"
      component="article"
      aria-labelledby={headingId}
      data-testid="post-card"
      data-post-id={post.id}
      data-landed={landed || undefined}
      tabIndex={landed ? -1 : undefined}
      style={landed ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          {post.author ? (
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <UserAvatar
                name={post.author.displayName}
                avatarUrl={post.author.avatarUrl}
                avatarSeed={null}
                size={40}
                decorative
              />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Anchor
                  component={Link}
                  to={`/user/${post.author.id}`}
                  fw={600}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {post.author.displayName}
                </Anchor>
                <Text size="xs" c="dimmed">
                  <time
                    dateTime={post.createdAt}
                    title={new Date(post.createdAt).toLocaleString(intlLocale(i18n.language))}
                  >
                    {when}
                  </time>
                  {post.isEdited && (
                    <>
                      {' · '}
                      <span data-testid="post-edited">{t('community.post.edited')}</span>
                    </>
                  )}
                </Text>
              </Stack>
            </Group>
          ) : (
            <Stack gap={0}>
              <Text fw={600} c="dimmed" fs="italic">
                {t('community.post.userUnavailable')}
              </Text>
              <Text size="xs" c="dimmed">
                <time dateTime={post.createdAt}>{when}</time>
                {post.isEdited && ` · ${t('community.post.edited')}`}
              </Text>
            </Stack>
          )}
          <Group gap={4} wrap="nowrap">
            {post.isPinned && (
              <Badge variant="light" color="brown" data-testid="post-pinned">
                {t('community.post.pinned')}
              </Badge>
            )}
            <PostMenu post={post} own={own} onEdit={() => onEdit(post)} onDeleted={onDeleted} />
          </Group>
        </Group>

        {post.title && (
          <Title
            order={detail ? 2 : 3}
            fz={{ base: 18, sm: 20 }}
            id={headingId}
            style={{ overflowWrap: 'anywhere' }}
            data-testid="post-title"
          >
            {post.title}
          </Title>
        )}

        {post.book && (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <BookCover
              url={post.book.coverImageUrl}
              title={post.book.title}
              author={post.book.author}
              height={72}
            />
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed">
                {t('community.post.about')}
              </Text>
              <Anchor
                component={Link}
                to={bookPath(post.book)}
                fw={600}
                id={post.title ? undefined : headingId}
                style={{ overflowWrap: 'anywhere' }}
              >
                {post.book.title}
              </Anchor>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {post.book.author}
              </Text>
            </Stack>
          </Group>
        )}
        {!post.book && !post.title && (
          <Text fw={600} id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {post.title || t('community.post.untitled')}
          </Text>
        )}

        <PostText text={post.content} />

        {post.imageUrl && (
          <img
            src={post.imageUrl}
            alt={post.title || t('community.post.imageAlt')}
            width={POST_IMAGE_WIDTH}
            height={POST_IMAGE_HEIGHT}
            loading="lazy"
            decoding="async"
            data-testid="post-image"
            style={{
              display: 'block',
              width: '100%',
              maxWidth: POST_IMAGE_WIDTH,
              height: 'auto',
              maxHeight: detail ? 640 : 360,
              objectFit: 'contain',
              borderRadius: 'var(--mantine-radius-sm)',
              background: 'var(--mantine-color-gray-1)',
            }}
          />
        )}

        <Group gap={6} data-testid="post-badges">
          <Badge variant="light" color="brown" size="sm" data-testid="post-type">
            {t(`community.postTypes.${post.postType}`)}
          </Badge>
          {post.tags.map((tag) => (
            <Badge
              key={tag}
              variant="outline"
              color="gray"
              size="sm"
              tt="none"
              data-testid="post-tag"
              style={{ maxWidth: '100%' }}
            >
              #{tag}
            </Badge>
          ))}
        </Group>

        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <LikeButton
              liked={post.likedByMe}
              count={post.likeCount}
              signedIn={!!me}
              pending={like.isPending}
              onToggle={() => like.mutate(!post.likedByMe)}
              label={t('community.post.like')}
            />
            {detail ? (
              <Text size="sm" c="dimmed" data-testid="comment-count">
                <IconMessageCircle size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
                {t('community.comments.count', { count: post.commentCount })}
              </Text>
            ) : (
              <Anchor
                component={Link}
                to={postPath(post.id)}
                size="sm"
                c="dimmed"
                data-testid="comment-count"
              >
                <IconMessageCircle size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
                {t('community.comments.count', { count: post.commentCount })}
              </Anchor>
            )}
          </Group>
          {!detail && (
            <Anchor component={Link} to={postPath(post.id)} size="sm">
              {t('community.post.open')}
            </Anchor>
          )}
        </Group>
        {like.isError && (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {like.error.message}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
