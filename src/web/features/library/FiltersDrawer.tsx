import { Button, Drawer } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';

/**
 * A phone's filters: a drawer from the left with the filter panel and a button showing the
 * count of the filters now on, which closes it on the results. Its own chunk (with Mantine's
 * Drawer, its scroll lock and focus trap, some 11 KB gzipped), fetched with the filters when the
 * Filters button is approached: nothing of it runs on the library's first screen.
 */
export function FiltersDrawer({
  opened,
  onClose,
  total,
  fetching,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  total: number;
  fetching: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={t('library.filters.title')}
      position="left"
      size="sm"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {children}
      <Button fullWidth mt="lg" onClick={onClose} loading={fetching} data-testid="show-results">
        {t('library.filters.showResults', { count: total })}
      </Button>
    </Drawer>
  );
}
