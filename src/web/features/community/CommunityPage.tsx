import {
  Button,
  CloseButton,
  Container,
  Group,
  Stack,
  Tabs,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft, IconMessagePlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSearchParams } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { FeedList } from './FeedList';
import { EmptyState } from './EmptyState';
import { PostFormDialog } from './PostFormDialog';
import { useFeed, usePostSearch, usePostsLive } from './api';
import { POST_SEARCH_MAX_QUERY, POST_SEARCH_MIN_QUERY } from './contract';
import { POST_SEARCH_DEBOUNCE_MS } from './limits';
import type { Post } from './types';
import { PageHeader } from '../../components/PageHeader';

type Tab = 'popular' | 'friends';

/** A feed tab: its heading, then the feed (this visit's own posts on top, sponsored posts in). */
function FeedTab({
  tab,
  query,
  me,
  onEdit,
  justPosted,
  onDeleted,
  landOn,
}: {
  tab: Tab;
  query: ReturnType<typeof useFeed>;
  me: string | null;
  onEdit: (post: Post) => void;
  justPosted: Post[];
  onDeleted: (id: string) => void;
  landOn: string | null;
}) {
  const { t } = useTranslation();
  const heading = t(`community.${tab}.heading`);
  return (
    <Tabs.Panel value={tab} pt="md">
      <Title order={2} fz="xl" mb="sm">
        {heading}
      </Title>
      <FeedList
        query={query}
        me={me}
        label={heading}
        onEdit={onEdit}
        extra={justPosted}
        onDeleted={onDeleted}
        landOn={landOn}
        sponsored
        empty={
          <EmptyState
            title={t(`community.${tab}.emptyTitle`)}
            text={t(`community.${tab}.emptyText`)}
          />
        }
      />
    </Tabs.Panel>
  );
}

/** /community: search, the popular and friends tabs, and writing a post. */
export default function CommunityPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('community.pageTitle'));
  const session = useSession();
  const me = session.status === 'signed-in' ? session.user.id : null;
  const [params, setParams] = useSearchParams();
  const tab: Tab = me && params.get('tab') === 'friends' ? 'friends' : 'popular';
  const q = params.get('q') ?? '';

  // The box is typed into freely; the URL (and the search) follows once the typing pauses.
  const [text, setText] = useState(q);
  const [debounced] = useDebouncedValue(text, POST_SEARCH_DEBOUNCE_MS);
  // Back/forward or a link changed the URL: the box follows (but keeps a space being typed).
  useEffect(() => setText((now) => (now.trim() === q.trim() ? now : q)), [q]);
  // Only a pause in the typing moves the URL: reading the current q in an effect event keeps a
  // back/forward (which changes q, not the typing) from being pushed back to the old text.
  const followTyping = useEffectEvent((typed: string) => {
    const next = typed.trim();
    if (next === q.trim()) return;
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (next) p.set('q', next);
        else p.delete('q');
        return p;
      },
      { replace: true, preventScrollReset: true },
    );
  });
  useEffect(() => followTyping(debounced), [debounced]);
  const searching = q.trim().length >= POST_SEARCH_MIN_QUERY;

  const popular = useFeed('popular', !searching && tab === 'popular');
  const friends = useFeed('friends', !searching && tab === 'friends' && !!me);
  const results = usePostSearch(q.trim(), searching);
  usePostsLive();

  const [editing, setEditing] = useState<Post | null>(null);
  const [creating, setCreating] = useState(false);
  // Posts written on this visit stay on top of the feed (the popular order would sink them).
  const [justPosted, setJustPosted] = useState<Post[]>([]);
  // The post just published: its author lands on it, on top of the feed.
  const [landOn, setLandOn] = useState<string | null>(null);

  const setTab = (value: string | null) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (value === 'friends') p.set('tab', 'friends');
        else p.delete('tab');
        return p;
      },
      { preventScrollReset: true },
    );

  const clearSearch = () => {
    setText('');
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.delete('q');
        return p;
      },
      { preventScrollReset: true },
    );
  };

  const onEdit = (post: Post) => setEditing(post);
  const onDeleted = (id: string) => setJustPosted((list) => list.filter((p) => p.id !== id));
  const feedProps = { me, onEdit, justPosted, onDeleted, landOn };

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <PageHeader compact title={t('community.title')} subtitle={t('community.subtitle')} />

        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            type="search"
            label={t('community.search.label')}
            placeholder={t('community.search.placeholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            rightSection={
              text ? (
                <CloseButton
                  size="sm"
                  aria-label={t('community.search.clear')}
                  onClick={clearSearch}
                />
              ) : null
            }
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && text && clearSearch()}
            style={{ flex: '1 1 240px' }}
            autoComplete="off"
            maxLength={POST_SEARCH_MAX_QUERY}
          />
          {me && (
            <Button
              leftSection={<IconMessagePlus size={18} aria-hidden />}
              onClick={() => {
                setLandOn(null);
                setCreating(true);
              }}
            >
              {t('community.createPost')}
            </Button>
          )}
        </Group>

        {searching ? (
          <section aria-labelledby="community-results">
            <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
              <Title order={2} fz="xl" id="community-results" style={{ overflowWrap: 'anywhere' }}>
                {t('community.search.resultsFor', { q: q.trim() })}
              </Title>
              <Button
                variant="subtle"
                size="compact-sm"
                leftSection={<IconArrowLeft size={16} aria-hidden />}
                onClick={clearSearch}
              >
                {t('community.search.back')}
              </Button>
            </Group>
            <FeedList
              query={results}
              me={me}
              label={t('community.search.resultsLabel')}
              onEdit={onEdit}
              empty={
                <EmptyState
                  title={t('community.search.emptyTitle')}
                  text={t('community.search.emptyText')}
                />
              }
            />
          </section>
        ) : (
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="popular">{t('community.tabs.popular')}</Tabs.Tab>
              {me && <Tabs.Tab value="friends">{t('community.tabs.friends')}</Tabs.Tab>}
            </Tabs.List>
            <FeedTab tab="popular" query={popular} {...feedProps} />
            {me && <FeedTab tab="friends" query={friends} {...feedProps} />}
          </Tabs>
        )}
      </Stack>
      <PostFormDialog
        opened={creating}
        onClose={() => setCreating(false)}
        // Published: focus goes to the new post (PostCard's `landed`), not back to the button.
        returnFocus={!landOn}
        onSaved={(post) => {
          setJustPosted((list) => [post, ...list]);
          setLandOn(post.id);
          // Search results would not show it: back to the feed, where it is on top.
          if (searching) clearSearch();
        }}
      />
      <PostFormDialog
        opened={!!editing}
        post={editing}
        onClose={() => setEditing(null)}
        onSaved={(post) => setJustPosted((list) => list.map((p) => (p.id === post.id ? post : p)))}
      />
    </Container>
  );
}
