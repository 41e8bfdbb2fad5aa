import { Button, Paper, SimpleGrid, Title } from '@mantine/core';
import { IconArrowsExchange, IconBooks, IconPlus, IconTag } from '@tabler/icons-react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { AddBookStep } from './AddBookModal';

/** Quick actions of my books: add book, browse, quick trade, quick sell. */
export function QuickActions({ onAdd }: { onAdd: (step: AddBookStep) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="quick-actions-title">
      <Title order={2} fz="lg" mb="sm" id="quick-actions-title">
        {t('myBooks.quickActions.title')}
      </Title>
      {/* One column on a phone: two would cut "Vendita rapida" (a label is never cut). */}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => onAdd('choose')}
        >
          {t('myBooks.quickActions.addBook')}
        </Button>
        <Button
          variant="light"
          component={Link}
          to="/library"
          leftSection={<IconBooks size={16} aria-hidden />}
        >
          {t('myBooks.quickActions.browse')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconArrowsExchange size={16} aria-hidden />}
          onClick={() => onAdd('quickTrade')}
        >
          {t('myBooks.quickActions.quickTrade')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconTag size={16} aria-hidden />}
          onClick={() => onAdd('quickSell')}
        >
          {t('myBooks.quickActions.quickSell')}
        </Button>
      </SimpleGrid>
    </Paper>
  );
}
