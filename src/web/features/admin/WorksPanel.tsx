import { Button, Group, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useWorkSearch } from './worksApi';
import { WorkEditor } from './WorkEditor';

/**
 * The admins' works tab (issue 35): find a work by a title in any language or its author, then
 * correct it, move its books or merge another into it. Every change is in the audit log.
 */
export function WorksPanel() {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const found = useWorkSearch(q, page);
  const data = found.data;
  return (
    <Stack>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim());
          setPage(1);
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput
            label={t('admin.works.search')}
            description={t('admin.works.searchHint')}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            style={{ flex: '1 1 16rem' }}
            maxLength={200}
          />
          <Button type="submit">{t('admin.works.find')}</Button>
        </Group>
      </form>
      {data && data.items.length === 0 && <Text c="dimmed">{t('admin.works.noneFound')}</Text>}
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {data?.items.map((w) => (
          <Paper component="li" key={w.id} withBorder p="sm" data-testid="admin-work">
            <Group justify="space-between" wrap="wrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0, flex: '1 1 16rem' }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {w.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {w.author}
                  {w.firstYear !== null && ` · ${w.firstYear}`}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {w.titles.map((x) => `${x.language}: ${x.title}`).join(' · ')}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('admin.works.counts', { books: w.books, copies: w.copies })}
                </Text>
              </Stack>
              <Button
                size="compact-sm"
                variant={open === w.id ? 'filled' : 'default'}
                onClick={() => setOpen(open === w.id ? null : w.id)}
                aria-expanded={open === w.id}
              >
                {t('admin.works.edit')}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
      {data && data.total > data.pageSize && (
        <Pagination
          total={Math.ceil(data.total / data.pageSize)}
          value={page}
          onChange={setPage}
          getControlProps={(c) => ({ 'aria-label': t(`library.pagination.${c}`) })}
          getItemProps={(p) => ({ 'aria-label': t('library.pagination.page', { page: p }) })}
        />
      )}
      {open && <WorkEditor key={open} id={open} onMerged={setOpen} />}
    </Stack>
  );
}
