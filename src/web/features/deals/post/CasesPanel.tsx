import { Badge, Button, Checkbox, Group, Pagination, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { DealCard } from '../DealCard';
import { useCases } from './api';
import { formatWhen } from './format';

/** /admin, tab "Parcel problems": the cases, open ones first; each opens the deal's card. */
export function CasesPanel() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [openOnly, setOpenOnly] = useState(true);
  const [shown, setShown] = useState<string | null>(null);
  const cases = useCases(page, openOnly);
  const data = cases.data;
  return (
    <Stack gap="sm">
      <Checkbox
        label={t('deals.post.admin.openOnly')}
        checked={openOnly}
        onChange={(e) => {
          setOpenOnly(e.currentTarget.checked);
          setPage(1);
        }}
      />
      {cases.isError && (
        <Text role="alert" c="var(--mantine-color-error)">
          {cases.error.message}
        </Text>
      )}
      {data && data.items.length === 0 && <Text c="dimmed">{t('deals.post.admin.empty')}</Text>}
      <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data?.items.map((c) => (
          <Paper component="li" key={c.dealId} withBorder p="sm" data-testid="deal-case-row">
            <Stack gap={6}>
              <Group justify="space-between" wrap="wrap">
                <Text fw={600}>{c.titles.join(', ')}</Text>
                <Badge variant="light" color={c.outcome ? 'gray' : 'orange'} c="dark.7">
                  {c.outcome
                    ? t(`deals.post.case.outcome_${c.outcome}`)
                    : t('deals.post.admin.open')}
                </Badge>
              </Group>
              <Text size="sm">
                {t(`deals.post.reasons.${c.reason}`)} · {formatWhen(c.openedAt, i18n.language)}
              </Text>
              <Text size="sm" c="dimmed">
                {t('deals.post.admin.buyer', { name: c.buyer.displayName })} ·{' '}
                {t('deals.post.admin.seller', { name: c.seller.displayName })}
              </Text>
              <Group>
                <Button
                  size="compact-sm"
                  variant="default"
                  aria-expanded={shown === c.dealId}
                  onClick={() => setShown(shown === c.dealId ? null : c.dealId)}
                >
                  {t('deals.post.admin.view')}
                </Button>
              </Group>
              {shown === c.dealId && <DealCard dealId={c.dealId} />}
            </Stack>
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
    </Stack>
  );
}
