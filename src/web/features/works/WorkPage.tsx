import { Box, Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { bookLanguageName } from '@shared/bookLanguage';
import { BookCover } from '../../components/BookCover';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoader } from '../../components/PageLoader';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useWork } from './api';
import { CopyRow } from './CopyRow';
import { WorkWishButton } from '../wishlist';

/** /books/:workId: one book across its editions and languages, and every available copy. */
export default function WorkPage() {
  const { t } = useTranslation();
  const { workId } = useParams();
  const navigate = useNavigate();
  const query = useWork(workId);
  const data = query.data;
  useDocumentTitle(t('library.pageTitle'), data?.work.title);

  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/library');
  };
  const backBar = (
    <Group mb="md">
      <Button
        variant="subtle"
        leftSection={<IconArrowLeft size={16} aria-hidden />}
        onClick={goBack}
      >
        {t('bookDetail.back')}
      </Button>
    </Group>
  );

  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Container size="sm" py="xl">
        {backBar}
        <ErrorAlert title={missing ? t('works.errors.notFound') : t('works.loadFailed')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{missing ? t('works.notFoundText') : query.error.message}</Text>
            <Button component={Link} to="/library" variant="default" size="xs">
              {t('bookDetail.backToLibrary')}
            </Button>
          </Stack>
        </ErrorAlert>
      </Container>
    );
  }
  if (!data) return <PageLoader />;
  const { work, copies } = data;
  const otherTitles = work.titles.filter((x) => x.title !== work.title);
  return (
    <Container size="lg" py="xl">
      {backBar}
      {/* The book's facts beside a small cover (a phone too), its copies below at full width. */}
      <Grid gutter={{ base: 'md', sm: 'xl' }} mb="md">
        <Grid.Col span={{ base: 4, md: 2 }}>
          <BookCover
            url={work.coverUrl}
            title={work.title}
            author={work.author}
            sizes="(min-width: 62em) 190px, 33vw"
            priority
          />
        </Grid.Col>
        <Grid.Col span={{ base: 8, md: 10 }}>
          <Stack gap="lg">
            <div>
              <Title order={1} fz={{ base: 22, sm: 34 }} style={{ overflowWrap: 'anywhere' }}>
                {work.title}
              </Title>
              <Text size="lg" c="dimmed">
                {work.author}
              </Text>
              {work.firstYear !== null && (
                <Text size="sm" c="dimmed">
                  {t('works.firstPublished', { year: work.firstYear })}
                </Text>
              )}
              {otherTitles.length > 0 && (
                <Text size="sm" mt="xs" data-testid="work-other-titles">
                  {t('works.alsoTitled')}{' '}
                  {otherTitles.map((x, i) => (
                    <span key={x.language}>
                      {i > 0 && ', '}
                      <em lang={x.language === 'und' ? undefined : x.language}>{x.title}</em>
                      {x.language !== 'und' && ` (${bookLanguageName(x.language)})`}
                    </span>
                  ))}
                </Text>
              )}
            </div>
          </Stack>
        </Grid.Col>
      </Grid>
      {/* Below the facts, at full width: its label is long in Italian at 375 px. */}
      <Box mb="xl">
        <WorkWishButton workId={work.id} title={work.title} />
      </Box>
      <section aria-labelledby="work-copies">
        <Title order={2} fz="xl" id="work-copies">
          {t('works.copiesTitle', { count: copies.length })}
        </Title>
        {copies.length > 0 ? (
          <>
            <Text size="sm" c="dimmed" mb="sm">
              {t('works.sortedNote')}
            </Text>
            <Stack
              component="ul"
              gap="sm"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-labelledby="work-copies"
            >
              {copies.map((c) => (
                <CopyRow key={c.id} copy={c} />
              ))}
            </Stack>
          </>
        ) : (
          <Stack gap="xs" align="flex-start" mt="xs">
            <Text>{t('works.none')}</Text>
            <Button
              component={Link}
              to={`/library?q=${encodeURIComponent(work.title)}`}
              variant="default"
              size="xs"
            >
              {t('works.searchLibrary')}
            </Button>
          </Stack>
        )}
      </section>
    </Container>
  );
}
