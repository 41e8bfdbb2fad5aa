import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { AdminWork } from '@shared/works';
import { useWorkSearch } from './worksApi';

/** Finds a work by a title or the author and picks it (moving a book, merging a work). */
export function WorkPicker({
  label,
  excludeId,
  action,
  onPick,
  busy,
}: {
  label: string;
  /** The work being edited: not offered. */
  excludeId: string;
  /** The pick button's text for a work, e.g. "Merge into this one". */
  action: (work: AdminWork) => string;
  onPick: (work: AdminWork) => void;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const words = q.trim();
  const found = useWorkSearch(words, 1, words.length >= 2);
  const works = (found.data?.items ?? []).filter((w) => w.id !== excludeId).slice(0, 5);
  return (
    <Stack gap="xs">
      <TextInput
        label={label}
        description={t('admin.works.pickHint')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
      />
      {words.length >= 2 && found.isSuccess && works.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('admin.works.noneFound')}
        </Text>
      )}
      <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }}>
        {works.map((w) => (
          <Group component="li" key={w.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere', flex: '1 1 12rem' }}>
              <strong>{w.title}</strong> · {w.author}
              {w.firstYear !== null && ` (${w.firstYear})`}
            </Text>
            <Button size="compact-sm" variant="default" loading={busy} onClick={() => onPick(w)}>
              {action(w)}
            </Button>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
