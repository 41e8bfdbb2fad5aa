import {
  Alert,
  Anchor,
  Button,
  Center,
  Container,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ErrorAlert } from '../../components/ErrorAlert';
import { CommentsSection } from './CommentsSection';
import { PostCard } from './PostCard';
import { PostFormDialog } from './PostFormDialog';
import { usePost, usePostLive } from './api';

/** /community/posts/:postId: one post with its comments, live for its readers; shareable. */
export default function PostPage() {
  const { t } = useTranslation();
  const { postId } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const me = session.status === 'signed-in' ? session.user.id : null;
  const post = usePost(postId);
  usePostLive(postId, !!me);
  const [editing, setEditing] = useState(false);
  useDocumentTitle(
    t('community.postPage.title'),
    post.data?.title || post.data?.book?.title || post.data?.author?.displayName,
  );

  const back = (
    <Anchor component={Link} to="/community" size="sm">
      <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
      {t('community.postPage.back')}
    </Anchor>
  );

  if (post.isPending)
    return (
      <Center py={80}>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );

  const missing =
    (post.isError && post.error instanceof ApiError && post.error.status === 404) ||
    post.data?.status === 'hidden';
  if (missing)
    return (
      <Container size="sm" py="xl">
        <Stack align="center" ta="center" gap="sm" py="xl">
          <Text fz={48} fw={700} c="dimmed" aria-hidden>
            404
          </Text>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {t('community.postPage.notFoundTitle')}
          </Title>
          <Text c="dimmed">{t('communityApi.errors.postNotFound')}</Text>
          <Button component={Link} to="/community" variant="default">
            {t('community.postPage.back')}
          </Button>
        </Stack>
      </Container>
    );

  if (post.isError)
    return (
      <Container size="sm" py="xl">
        <ErrorAlert title={t('community.errors.title')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{post.error.message}</Text>
            <Button size="xs" variant="default" onClick={() => post.refetch()}>
              {t('community.errors.tryAgain')}
            </Button>
          </Stack>
        </ErrorAlert>
      </Container>
    );

  const p = post.data!;
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        {back}
        <Title order={1} fz={{ base: 24, sm: 28 }} style={{ overflowWrap: 'anywhere' }}>
          {p.author
            ? t('community.postPage.heading', { name: p.author.displayName })
            : t('community.postPage.headingAnonymous')}
        </Title>
        {p.status === 'removed' && (
          <Alert color="red" variant="light" role="status">
            {t('community.post.removedNotice')}
          </Alert>
        )}
        <PostCard
          post={p}
          me={me}
          detail
          onEdit={() => setEditing(true)}
          onDeleted={() => navigate('/community', { replace: true })}
        />
        <CommentsSection post={p} signedIn={!!me} />
      </Stack>
      <PostFormDialog opened={editing} post={p} onClose={() => setEditing(false)} />
    </Container>
  );
}
