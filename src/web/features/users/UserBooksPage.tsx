import {
  Anchor,
  Center,
  Container,
  Loader,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { BookCard } from '../listings';
import { usePublicProfile, useUserListings } from './api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageNumbers } from '../../components/PageNumbers';
import { pageCount, pageFromParams } from '../../lib/paging';
import { AddToBundleButton, BundlePanel } from '../deals';

const TABS = ['all', 'sell', 'trade'] as const;

/** /user/:userId/books: a member's listings in tabs all, sell, trade (paged by the server). */
export default function UserBooksPage() {
  const { t } = useTranslation();
  const { userId } = useParams();
  const [params, setParams] = useSearchParams();
  const type = (TABS as readonly string[]).includes(params.get('type') ?? '')
    ? params.get('type')!
    : 'all';
  const page = pageFromParams(params);
  const profile = usePublicProfile(userId);
  const listings = useUserListings(userId, type, page);
  const name = profile.data?.displayName;
  useDocumentTitle(t('userProfile.booksTitle'), name);

  const missing =
    (profile.error instanceof ApiError && profile.error.status === 404) ||
    (listings.error instanceof ApiError && listings.error.status === 404);
  const data = listings.data;
  const pages = data ? pageCount(data.total, data.pageSize) : 1;

  return (
    <Container size="lg" py="xl">
      <Stack gap="md">
        <Anchor component={Link} to={`/user/${userId}`}>
          <IconArrowLeft size={14} aria-hidden /> {t('userProfile.backToProfile')}
        </Anchor>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {name ? t('userProfile.booksOf', { name }) : t('userProfile.booksTitle')}
        </Title>
        {profile.data && <BundlePanel sellerId={profile.data.id} />}
        {missing ? (
          <ErrorAlert title={t('userProfile.errors.notFoundTitle')}>
            {t('userProfile.errors.notFound')}
          </ErrorAlert>
        ) : (
          <Tabs
            value={type}
            onChange={(v) =>
              setParams(v && v !== 'all' ? { type: v } : {}, { preventScrollReset: true })
            }
          >
            <Tabs.List>
              {TABS.map((tab) => (
                <Tabs.Tab key={tab} value={tab}>
                  {t(`userProfile.tabs.${tab}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {TABS.map((tab) => (
              <Tabs.Panel key={tab} value={tab} pt="md">
                {tab === type && (
                  <Stack gap="md">
                    {listings.isPending && (
                      <Center py="xl">
                        <Loader role="status" aria-label={t('common.loading')} />
                      </Center>
                    )}
                    {listings.isError && (
                      <ErrorAlert>{t('userProfile.errors.loadBooks')}</ErrorAlert>
                    )}
                    {data && data.items.length === 0 && (
                      <Text c="dimmed">{t('userProfile.noBooks')}</Text>
                    )}
                    {data && data.items.length > 0 && (
                      <SimpleGrid
                        cols={{ base: 2, xs: 3, md: 4 }}
                        spacing="md"
                        component="ul"
                        style={{ listStyle: 'none', padding: 0, margin: 0 }}
                      >
                        {data.items.map((l, i) => (
                          <li key={l.id}>
                            <Stack gap={6}>
                              <BookCard listing={l} priority={i < 2} />
                              <AddToBundleButton listing={l} />
                            </Stack>
                          </li>
                        ))}
                      </SimpleGrid>
                    )}
                    {pages > 1 && (
                      <PageNumbers
                        pages={pages}
                        page={page}
                        onChange={(p) => {
                          const next = new URLSearchParams(params);
                          next.set('page', String(p));
                          setParams(next);
                        }}
                      />
                    )}
                  </Stack>
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
        )}
      </Stack>
    </Container>
  );
}
