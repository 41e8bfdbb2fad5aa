import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Loader,
  NumberInput,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { AdminWork, AdminWorkBook, WorkPatch } from '@shared/works';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAdminWork, useMergeWorks, useMoveBook, usePatchWork } from './worksApi';
import { WorkPicker } from './WorkPicker';

type TitleRow = { language: string; title: string };

const done = (message: string) =>
  notifications.show({ color: 'green', message, closeButtonProps: { 'aria-label': '×' } });

/** The fields sent: only what changed (a title removed is null). */
function patchOf(work: AdminWork, author: string, year: number | '', titles: TitleRow[]) {
  const patch: WorkPatch = {};
  if (author.trim() !== work.author) patch.author = author;
  const firstYear = year === '' ? null : year;
  if (firstYear !== work.firstYear) patch.firstYear = firstYear;
  const before = new Map(work.titles.map((x) => [x.language, x.title]));
  const after = new Map(titles.map((x) => [x.language.trim().toLowerCase(), x.title]));
  const changed: Record<string, string | null> = {};
  for (const [language, title] of after)
    if (language && before.get(language) !== title.trim()) changed[language] = title;
  for (const language of before.keys()) if (!after.has(language)) changed[language] = null;
  if (Object.keys(changed).length) patch.titles = changed;
  return patch;
}

/** One work on the admins' screen: its titles, author and year; its books; a merge. */
export function WorkEditor({ id, onMerged }: { id: string; onMerged: (id: string) => void }) {
  const { t } = useTranslation();
  const detail = useAdminWork(id);
  const patch = usePatchWork(id);
  const move = useMoveBook();
  const merge = useMergeWorks(id);
  const work = detail.data?.work;
  const [author, setAuthor] = useState('');
  const [year, setYear] = useState<number | ''>('');
  const [titles, setTitles] = useState<TitleRow[]>([]);
  const [moving, setMoving] = useState<AdminWorkBook | null>(null);
  // The form starts from the work as stored, again after each save.
  const stamp = detail.dataUpdatedAt;
  useEffect(() => {
    if (!work) return;
    setAuthor(work.author);
    setYear(work.firstYear ?? '');
    setTitles(work.titles.map((x) => ({ ...x })));
  }, [work, stamp]);

  if (detail.isPending) return <Loader role="status" aria-label={t('common.loading')} />;
  if (detail.isError || !work)
    return <ErrorAlert>{detail.error?.message ?? t('works.errors.notFound')}</ErrorAlert>;

  const save = () => {
    const body = patchOf(work, author, year, titles);
    if (Object.keys(body).length === 0) return done(t('admin.works.nothingChanged'));
    patch.mutate(body, { onSuccess: () => done(t('admin.works.saved')) });
  };
  const error = patch.error ?? move.error ?? merge.error;
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="work-editor"
      data-testid="work-editor"
    >
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg" id="work-editor" style={{ overflowWrap: 'anywhere' }}>
            {work.title}
          </Title>
          <Anchor component={Link} to={`/books/${work.id}`} size="sm">
            {t('admin.works.openPage')}
          </Anchor>
        </Group>
        {error && <ErrorAlert data-testid="work-error">{error.message}</ErrorAlert>}
        <TextInput
          label={t('admin.works.author')}
          value={author}
          onChange={(e) => setAuthor(e.currentTarget.value)}
          maxLength={300}
        />
        <NumberInput
          label={t('admin.works.firstYear')}
          value={year}
          onChange={(v) => setYear(typeof v === 'number' ? v : '')}
          allowDecimal={false}
          min={-3000}
          max={2100}
          w={160}
        />
        <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
          <Text component="legend" fw={500} size="sm">
            {t('admin.works.titles')}
          </Text>
          {titles.map((row, i) => (
            <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label={t('admin.works.language')}
                value={row.language}
                w={90}
                maxLength={3}
                onChange={(e) => {
                  const language = e.currentTarget.value;
                  setTitles((all) => all.map((x, j) => (j === i ? { ...x, language } : x)));
                }}
              />
              <TextInput
                label={t('admin.works.title')}
                value={row.title}
                style={{ flex: 1 }}
                maxLength={300}
                onChange={(e) => {
                  const title = e.currentTarget.value;
                  setTitles((all) => all.map((x, j) => (j === i ? { ...x, title } : x)));
                }}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={t('admin.works.removeTitle', { titleLanguage: row.language })}
                onClick={() => setTitles((all) => all.filter((_, j) => j !== i))}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
          <Button
            variant="subtle"
            size="xs"
            w="fit-content"
            onClick={() => setTitles((all) => [...all, { language: '', title: '' }])}
          >
            {t('admin.works.addTitle')}
          </Button>
        </Stack>
        <Button w="fit-content" onClick={save} loading={patch.isPending}>
          {t('admin.works.save')}
        </Button>

        <Title order={3} fz="md">
          {t('admin.works.books', { count: work.books })}
        </Title>
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="work-books">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.works.title')}</Table.Th>
                <Table.Th>{t('admin.works.language')}</Table.Th>
                <Table.Th>ISBN</Table.Th>
                <Table.Th>{t('admin.works.listings')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.data.books.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {b.title} · {b.author}
                  </Table.Td>
                  <Table.Td>{b.language ?? '—'}</Table.Td>
                  <Table.Td>{b.isbn ?? '—'}</Table.Td>
                  <Table.Td>
                    {t('admin.works.listingCount', { count: b.listings, available: b.available })}
                  </Table.Td>
                  <Table.Td>
                    <Button size="compact-sm" variant="default" onClick={() => setMoving(b)}>
                      {t('admin.works.move')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {moving && (
          <Paper withBorder p="sm" data-testid="work-move">
            <Stack gap="xs">
              <Text fw={600}>{t('admin.works.moving', { title: moving.title })}</Text>
              <WorkPicker
                label={t('admin.works.moveTo')}
                excludeId={work.id}
                busy={move.isPending}
                action={() => t('admin.works.moveHere')}
                onPick={(target) =>
                  move.mutate(
                    { bookId: moving.id, workId: target.id },
                    { onSuccess: () => (setMoving(null), done(t('admin.works.moved'))) },
                  )
                }
              />
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  loading={move.isPending}
                  onClick={() =>
                    move.mutate(
                      { bookId: moving.id, workId: 'new' },
                      { onSuccess: () => (setMoving(null), done(t('admin.works.moved'))) },
                    )
                  }
                >
                  {t('admin.works.moveToNew')}
                </Button>
                <Button size="xs" variant="subtle" onClick={() => setMoving(null)}>
                  {t('admin.dialog.cancel')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}

        <Title order={3} fz="md">
          {t('admin.works.mergeTitle')}
        </Title>
        <WorkPicker
          label={t('admin.works.mergeLabel')}
          excludeId={work.id}
          busy={merge.isPending}
          action={(other) => t('admin.works.mergeAction', { title: other.title })}
          onPick={(other) =>
            merge.mutate(other.id, {
              onSuccess: () => {
                done(t('admin.works.merged'));
                onMerged(work.id);
              },
            })
          }
        />
      </Stack>
    </Paper>
  );
}
