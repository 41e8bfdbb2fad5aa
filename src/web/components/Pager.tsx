import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { pageCount } from '../lib/paging';

/** Previous / next for a paged list; nothing when everything fits on one page. */
export function Pager({
  page,
  pageSize,
  total,
  onChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <Group gap="xs" mt="sm" justify="center">
      <Button size="xs" variant="default" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        {t('common.pager.previous')}
      </Button>
      <Text size="sm">{t('common.pager.pageOf', { page, pages })}</Text>
      <Button
        size="xs"
        variant="default"
        disabled={page >= pages}
        onClick={() => onChange(page + 1)}
      >
        {t('common.pager.next')}
      </Button>
    </Group>
  );
}
