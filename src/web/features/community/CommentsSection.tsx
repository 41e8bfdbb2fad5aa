import { Anchor, Box, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useLocation } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CommentForm } from './CommentForm';
import { CommentItem } from './CommentItem';
import { useComments, useCreateComment } from './api';
import { loginPath } from './format';
import type { Post } from './types';
import { threadComments } from './thread';
import classes from './community.module.css';

/** A post's comments, oldest first, 50 a page, with replies one level deep and the forms. */
export function CommentsSection({ post, signedIn }: { post: Post; signedIn: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const comments = useComments(post.id);
  const create = useCreateComment(post.id);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const items = useMemo(() => comments.data?.pages.flatMap((p) => p.items) ?? [], [comments.data]);
  const { tops, replies } = useMemo(() => threadComments(items), [items]);

  return (
    <Box component="section" aria-labelledby="comments-heading">
      <Title order={2} fz="xl" id="comments-heading" mb="sm">
        {t('community.comments.heading', { count: post.commentCount })}
      </Title>
      {signedIn ? (
        <CommentForm
          label={t('community.comments.label')}
          submitLabel={t('community.comments.submit')}
          onSubmit={(content) => create.mutateAsync({ content })}
        />
      ) : (
        <Text>
          <Anchor component={Link} to={loginPath(location.pathname)}>
            {t('community.comments.signIn')}
          </Anchor>
        </Text>
      )}
      <Box mt="md">
        {comments.isPending && (
          <Center py="md">
            <Loader role="status" aria-label={t('common.loading')} />
          </Center>
        )}
        {comments.isError && (
          <ErrorAlert title={t('community.comments.loadError')}>
            <Button size="xs" variant="default" onClick={() => comments.refetch()}>
              {t('community.errors.tryAgain')}
            </Button>
          </ErrorAlert>
        )}
        {comments.isSuccess && tops.length === 0 && (
          <Text c="dimmed">{t('community.comments.empty')}</Text>
        )}
        {tops.length > 0 && (
          <Stack
            component="ul"
            gap={0}
            className={classes.list}
            aria-label={t('community.comments.list')}
          >
            {tops.map((top) => {
              const answers = replies.get(top.id) ?? [];
              const replying = replyTo === top.id;
              return (
                <li key={top.id}>
                  <CommentItem comment={top} signedIn={signedIn} onReply={() => setReplyTo(top.id)}>
                    {(answers.length > 0 || replying) && (
                      <Stack
                        component="ul"
                        gap={0}
                        className={classes.replies}
                        aria-label={t('community.comments.replies', {
                          name: top.author?.displayName ?? t('community.post.userUnavailable'),
                        })}
                      >
                        {answers.map((r) => (
                          <li key={r.id}>
                            <CommentItem
                              comment={r}
                              signedIn={signedIn}
                              onReply={() => setReplyTo(top.id)}
                            />
                          </li>
                        ))}
                        {replying && (
                          <li>
                            <CommentForm
                              label={t('community.comments.replyLabel', {
                                name:
                                  top.author?.displayName ?? t('community.post.userUnavailable'),
                              })}
                              submitLabel={t('community.comments.replySubmit')}
                              autoFocus
                              onCancel={() => setReplyTo(null)}
                              onSubmit={async (content) => {
                                await create.mutateAsync({ content, parentCommentId: top.id });
                                setReplyTo(null);
                              }}
                            />
                          </li>
                        )}
                      </Stack>
                    )}
                  </CommentItem>
                </li>
              );
            })}
          </Stack>
        )}
        {comments.hasNextPage && (
          <Center mt="sm">
            <Button
              variant="default"
              loading={comments.isFetchingNextPage}
              onClick={() => comments.fetchNextPage()}
            >
              {t('community.comments.loadMore')}
            </Button>
          </Center>
        )}
      </Box>
    </Box>
  );
}
