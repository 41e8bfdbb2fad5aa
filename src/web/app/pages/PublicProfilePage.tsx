import {
  Anchor,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconLayoutDashboard, IconMapPin } from '@tabler/icons-react';
import { Link, useParams } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import { displayNameOf, useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ErrorAlert } from '../../components/ErrorAlert';
import { MemberRating } from '../../components/MemberRating';
import { UserAvatar } from '../../components/UserAvatar';
import { BlockControl } from '../../features/blocks';
import { UserPostsSection } from '../../features/community';
import { ConnectionControl } from '../../features/connections';
import { AddToBundleButton, BundlePanel } from '../../features/deals';
import { BookCard } from '../../features/listings';
import { ProfileReviews, ReportButton } from '../../features/moderation';
import { usePublicProfile } from '../../features/users';
import { SellerAwayNotice } from '../../features/watching';

/**
 * /user/:userId: a member's public profile. Composed here, in app/, because it puts several
 * features together (their books, friendship, posts, reviews, reports, blocks, holidays, bundles);
 * features never import each other in a circle.
 */
export default function PublicProfilePage() {
  const { t, i18n } = useTranslation();
  const { userId } = useParams();
  const session = useSession();
  const profile = usePublicProfile(userId);
  useDocumentTitle(t('userProfile.pageTitle'), profile.data && displayNameOf(profile.data));

  if (profile.isPending)
    return (
      <Center py={80}>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (profile.isError) {
    const missing = profile.error instanceof ApiError && profile.error.status === 404;
    return (
      <Container size="sm" py="xl">
        <ErrorAlert
          title={missing ? t('userProfile.errors.notFoundTitle') : t('userProfile.errors.load')}
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {missing ? t('userProfile.errors.notFound') : profile.error.message}
            </Text>
            <Button component={Link} to="/library" size="xs" variant="default">
              {t('bookDetail.backToLibrary')}
            </Button>
          </Stack>
        </ErrorAlert>
      </Container>
    );
  }

  const p = profile.data;
  const name = displayNameOf(p);
  const place = [p.locationCity, p.locationCountry].filter(Boolean).join(', ');
  const own = session.status === 'signed-in' && session.user.id === p.id;
  const stats = [
    { key: 'booksListed', value: p.booksListed },
    { key: 'totalTrades', value: p.totalTrades },
    { key: 'memberSince', value: formatDate(p.memberSince, i18n.language) },
  ] as const;

  return (
    <Container size="lg" py="xl">
      <Stack gap="xl">
        <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
          <Group gap="lg" align="center" wrap="wrap">
            <UserAvatar name={name} avatarUrl={p.avatarUrl} avatarSeed={p.avatarSeed} size={96} />
            <Stack gap={4} style={{ flex: 1, minWidth: 200 }}>
              <Title order={1} fz={{ base: 26, sm: 32 }} style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Title>
              {p.username && <Text c="dimmed">@{p.username}</Text>}
              <MemberRating
                rating={{ average: p.rating, reviewCount: p.reviewCount }}
                testId="profile-rating"
              />
              {place && (
                <Group gap={4} c="dimmed" wrap="nowrap" data-testid="profile-location">
                  <IconMapPin size={16} aria-hidden />
                  <Text size="sm">{t('userProfile.location', { place })}</Text>
                </Group>
              )}
            </Stack>
            {own && (
              <Button
                component={Link}
                to={`/profile/${p.id}/dashboard`}
                leftSection={<IconLayoutDashboard size={16} aria-hidden />}
              >
                {t('userProfile.goToDashboard')}
              </Button>
            )}
            {!own && <ConnectionControl userId={p.id} displayName={name} />}
          </Group>
          {!own && (
            <Group gap="xs" align="flex-start">
              <ReportButton kind="profile" id={p.id} ownerId={p.id} />
              {session.status === 'signed-in' && <BlockControl userId={p.id} name={name} />}
            </Group>
          )}
          <Stack mt="md">
            <SellerAwayNotice sellerId={p.id} kind="profile" />
          </Stack>
          <SimpleGrid cols={{ base: 1, xs: 3 }} mt="lg" component="dl" spacing="sm">
            {stats.map((s) => (
              <Paper key={s.key} bg="gray.0" p="sm" radius="md">
                <Text component="dt" size="sm" c="dimmed">
                  {t(`userProfile.stats.${s.key}`)}
                </Text>
                <Text component="dd" m={0} fw={700} fz="xl" data-testid={`profile-${s.key}`}>
                  {s.value}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          {p.bio && (
            <Stack gap={4} mt="lg">
              <Title order={2} fz="lg">
                {t('userProfile.about')}
              </Title>
              <Text
                style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
                data-testid="profile-bio"
              >
                {p.bio}
              </Text>
            </Stack>
          )}
        </Paper>
        <BundlePanel sellerId={p.id} />
        <section aria-labelledby="recent-books">
          <Group justify="space-between" mb="sm">
            <Title order={2} fz="xl" id="recent-books">
              {t('userProfile.recentBooks')}
            </Title>
            {p.booksListed > 0 && (
              <Anchor component={Link} to={`/user/${p.id}/books`}>
                {t('userProfile.allBooks')}
              </Anchor>
            )}
          </Group>
          {p.recentBooks.length === 0 ? (
            <Text c="dimmed">{t('userProfile.noBooks')}</Text>
          ) : (
            <SimpleGrid
              cols={{ base: 2, xs: 3, md: 6 }}
              spacing="md"
              component="ul"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {p.recentBooks.map((l) => (
                <li key={l.id}>
                  <Stack gap={6}>
                    <BookCard listing={l} />
                    <AddToBundleButton listing={l} />
                  </Stack>
                </li>
              ))}
            </SimpleGrid>
          )}
        </section>
        <UserPostsSection
          userId={p.id}
          me={session.status === 'signed-in' ? session.user.id : null}
          own={own}
        />
        <ProfileReviews userId={p.id} />
      </Stack>
    </Container>
  );
}
