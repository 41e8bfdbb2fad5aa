import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ReportMenu } from '../moderation';
import { UserAvatar } from '../../components/UserAvatar';
import { CommentForm } from './CommentForm';
import { formatWhen } from './format';
import { LikeButton } from './LikeButton';
import { PostText } from './PostText';
import { useCommentLike, useDeleteComment, useUpdateComment } from './api';
import type { Comment } from './types';
import { OwnerMenu } from '../../components/OwnerMenu';

/** One comment: author, time, edited mark, text, like, reply, and the owner's edit and delete. */
export function CommentItem({
  comment,
  signedIn,
  onReply,
  children,
}: {
  comment: Comment;
  signedIn: boolean;
  /** Opens the reply form under the top comment this one belongs to. */
  onReply?: () => void;
  /** Replies and the reply form, under this comment. */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const like = useCommentLike(comment.postId, comment.id);
  const update = useUpdateComment(comment.postId);
  const remove = useDeleteComment(comment.postId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const name = comment.author?.displayName ?? t('community.post.userUnavailable');
  const nameId = `comment-${comment.id}-author`;

  return (
    <Stack
      gap={6}
      component="article"
      aria-labelledby={nameId}
      data-testid="comment"
      data-comment-id={comment.id}
      py="xs"
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {comment.author && (
          <UserAvatar
            name={comment.author.displayName}
            avatarUrl={comment.author.avatarUrl}
            avatarSeed={null}
            size={32}
            decorative
          />
        )}
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="wrap" justify="space-between">
            <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
              {comment.author ? (
                <Anchor
                  component={Link}
                  to={`/user/${comment.author.id}`}
                  fw={600}
                  size="sm"
                  id={nameId}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {name}
                </Anchor>
              ) : (
                <Text fw={600} size="sm" c="dimmed" fs="italic" id={nameId}>
                  {name}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                <time dateTime={comment.createdAt}>
                  {formatWhen(comment.createdAt, t, i18n.language)}
                </time>
                {comment.isEdited && (
                  <>
                    {' · '}
                    <span data-testid="comment-edited">{t('community.post.edited')}</span>
                  </>
                )}
              </Text>
            </Group>
            {!comment.isOwner && <ReportMenu kind="comment" id={comment.id} />}
            {comment.isOwner && !editing && (
              <OwnerMenu
                label={t('community.comments.actions')}
                editLabel={t('community.comments.edit')}
                deleteLabel={t('community.comments.delete')}
                onEdit={() => setEditing(true)}
                onDelete={() => {
                  remove.reset();
                  setConfirming(true);
                }}
                iconSize={16}
                color="dark"
              />
            )}
          </Group>
          {editing ? (
            <CommentForm
              label={t('community.comments.editLabel')}
              submitLabel={t('community.form.save')}
              initial={comment.content}
              autoFocus
              onCancel={() => setEditing(false)}
              onSubmit={async (content) => {
                if (content !== comment.content)
                  await update.mutateAsync({ id: comment.id, content });
                setEditing(false);
              }}
            />
          ) : (
            <PostText text={comment.content} size="sm" />
          )}
          <Group gap="xs">
            <LikeButton
              liked={comment.likedByMe}
              count={comment.likeCount}
              signedIn={signedIn}
              pending={like.isPending}
              onToggle={() => like.mutate(!comment.likedByMe)}
              label={t('community.comments.like')}
            />
            {signedIn && onReply && (
              <Button
                variant="subtle"
                size="compact-sm"
                color="dark"
                leftSection={<IconArrowBackUp size={16} aria-hidden />}
                onClick={onReply}
              >
                {t('community.comments.reply')}
              </Button>
            )}
          </Group>
          {like.isError && (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {like.error.message}
            </Text>
          )}
        </Stack>
      </Group>
      {children}
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('community.comments.deleteTitle')}
        confirmLabel={t('community.comments.deleteConfirm')}
        loading={remove.isPending}
        error={remove.isError ? remove.error.message : null}
        onConfirm={() => remove.mutate(comment.id, { onSuccess: () => setConfirming(false) })}
      >
        {t('community.comments.deleteText')}
      </ConfirmDialog>
    </Stack>
  );
}
