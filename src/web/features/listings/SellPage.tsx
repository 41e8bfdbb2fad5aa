import { Button, Center, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBolt, IconLogin } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AddBookModal, type AddBookStep } from './AddBookModal';
import { useCreateListing } from './api';
import { notifyError, notifySuccess } from './errors';
import { ListingForm } from './ListingForm';
import { PageHeader } from '../../components/PageHeader';

/** /sell: the full listing form for members; a sign-in prompt (coming back here) for visitors. */
export default function SellPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('sell.pageTitle'));
  const session = useSession();
  const navigate = useNavigate();
  const create = useCreateListing();
  const [addStep, setAddStep] = useState<AddBookStep | null>(null);

  if (session.status === 'loading')
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );

  if (session.status !== 'signed-in')
    return (
      <Container size="sm" py="xl">
        <Paper withBorder p="xl" ta="center">
          <Stack align="center">
            <Title order={1} fz={28}>
              {t('sell.title')}
            </Title>
            <Text>{t('sell.signInPrompt')}</Text>
            <Button
              component={Link}
              to="/login?redirect_to=/sell"
              leftSection={<IconLogin size={16} aria-hidden />}
            >
              {t('sell.signIn')}
            </Button>
          </Stack>
        </Paper>
      </Container>
    );

  const showMine = (id: string) => navigate(`/library/book/${id}`);
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <PageHeader compact title={t('sell.title')} subtitle={t('sell.subtitle')} />
          <Button
            variant="light"
            leftSection={<IconBolt size={16} aria-hidden />}
            onClick={() => setAddStep('choose')}
          >
            {t('myBooks.addBook')}
          </Button>
        </Group>
        <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
          <ListingForm
            submitLabel={t('sell.submit')}
            onSubmit={async (body) => {
              try {
                const listing = await create.mutateAsync({ mode: 'full', ...body });
                notifySuccess(t('sell.added', { title: listing.title }));
                showMine(listing.id);
              } catch (err) {
                notifyError(err, 'add', t);
                throw err;
              }
            }}
          />
        </Paper>
      </Stack>
      <AddBookModal
        step={addStep}
        onStepChange={setAddStep}
        onClose={() => setAddStep(null)}
        onCreated={(l) => showMine(l.id)}
      />
    </Container>
  );
}
