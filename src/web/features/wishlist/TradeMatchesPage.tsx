import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowsExchange, IconMessage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useNavigate, useParams } from '@web/lib/router';
import { TRADE_MATCHES_PAGE_SIZE, type TradeBook, type TradeMatch } from '@shared/schemas/wishlist';
import { BookCover } from '../../components/BookCover';
import { ErrorAlert } from '../../components/ErrorAlert';
import { UserAvatar } from '../../components/UserAvatar';
import { AsyncSection, EmptyState } from '../../components/AsyncSection';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useDirectRoom, useTradeMatches } from './api';
import { PageNumbers } from '../../components/PageNumbers';
import { pageCount } from '../../lib/paging';

/** /profile/:userId/trades — members with whom a two-way trade is possible, best first. */
export default function TradeMatchesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('tradeMatches.pageTitle'));
  const { userId = '' } = useParams();
  const [page, setPage] = useState(1);
  const matches = useTradeMatches(page);
  const data = matches.data;
  const pages = data ? pageCount(data.total, TRADE_MATCHES_PAGE_SIZE) : 1;

  return (
    <Stack gap="xl">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('tradeMatches.title')}
        </Title>
        <Text c="dimmed">{t('tradeMatches.subtitle')}</Text>
      </div>
      <AsyncSection
        query={matches}
        loadingLabel={t('tradeMatches.loading')}
        errorTitle={t('tradeMatches.errors.loadFailed')}
        showErrorMessage
        retryLabel={t('tradeMatches.reload')}
        isEmpty={(d) => d.total === 0}
        empty={
          <EmptyState
            icon={<IconArrowsExchange size={48} stroke={1.2} aria-hidden />}
            title={t('tradeMatches.empty.title')}
            text={t('tradeMatches.empty.text')}
          >
            <Group justify="center" gap="sm" mt="xs">
              <Button component={Link} to={`/profile/${userId}/wishlist`}>
                {t('tradeMatches.empty.wishlist')}
              </Button>
              <Button component={Link} to={`/profile/${userId}/books`} variant="default">
                {t('tradeMatches.empty.books')}
              </Button>
            </Group>
          </EmptyState>
        }
      >
        {(d) => (
          <>
            {d.items.length > 0 && (
              <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {d.items.map((match) => (
                  <li key={match.member.id}>
                    <MatchCard match={match} me={userId} />
                  </li>
                ))}
              </Stack>
            )}
            {pages > 1 && <PageNumbers pages={pages} page={page} onChange={setPage} siblings={0} />}
          </>
        )}
      </AsyncSection>
    </Stack>
  );
}

function MatchCard({ match, me }: { match: TradeMatch; me: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const chat = useDirectRoom();
  const name = match.member.displayName || match.member.username || '?';
  const headingId = `match-${match.member.id}`;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="wrap" gap="sm" mb="sm">
        <Group gap="sm" wrap="nowrap">
          <UserAvatar
            name={name}
            avatarUrl={match.member.avatarUrl}
            avatarSeed={match.member.avatarSeed}
            size="md"
            decorative
          />
          <div>
            <Title order={2} fz="lg" id={headingId}>
              <Anchor component={Link} to={`/user/${match.member.id}`} inherit>
                {name}
              </Anchor>
            </Title>
            {match.member.username && (
              <Text size="xs" c="dimmed">
                @{match.member.username}
              </Text>
            )}
          </div>
        </Group>
        <Button
          leftSection={<IconMessage size={16} aria-hidden />}
          loading={chat.isPending}
          onClick={() =>
            chat.mutate(match.member.id, {
              onSuccess: ({ room }) =>
                navigate(`/profile/${me}/chats?room=${encodeURIComponent(room.id)}`),
            })
          }
        >
          {t('tradeMatches.openChat', { name })}
        </Button>
      </Group>
      {chat.isError && (
        <ErrorAlert mb="sm">{chat.error.message || t('tradeMatches.chatFailed')}</ErrorAlert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Side
          heading={t('tradeMatches.theyHave', { name })}
          books={match.theirBooks}
          count={match.theirCount}
        />
        <Side
          heading={t('tradeMatches.youHave', { name })}
          books={match.myBooks}
          count={match.myCount}
        />
      </SimpleGrid>
    </Card>
  );
}

function Side({ heading, books, count }: { heading: string; books: TradeBook[]; count: number }) {
  const { t } = useTranslation();
  return (
    <section aria-label={heading}>
      <Text fw={600} size="sm" mb={6}>
        {heading} · {t('tradeMatches.books', { count })}
      </Text>
      <Stack gap="xs">
        {books.map((b) => (
          <Group key={b.listingId} gap="sm" wrap="nowrap" align="flex-start">
            <BookCover url={b.coverUrl} title={b.title} author={b.author} height={72} />
            <div style={{ minWidth: 0 }}>
              <Anchor component={Link} to={`/library/book/${b.listingId}`} fw={600} size="sm">
                {b.title}
              </Anchor>
              <Text size="xs" c="dimmed" lineClamp={1}>
                {b.author}
              </Text>
            </div>
          </Group>
        ))}
        {count > books.length && (
          <Text size="xs" c="dimmed">
            {t('tradeMatches.more', { count: count - books.length })}
          </Text>
        )}
      </Stack>
    </section>
  );
}
