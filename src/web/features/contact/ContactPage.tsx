import { Button, Container, Grid, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ContactForm } from './ContactForm';
import { ContactInfo } from './ContactInfo';
import { HeroHeader } from '../../components/PageHeader';

/** Editing → sending (at least 1 s) → thank-you → back to a blank form. */
export default function ContactPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('contact.pageTitle'));
  const [sentTo, setSentTo] = useState<string | null>(null);
  // A fresh form (and focus on its first field) after "send another".
  const [round, setRound] = useState(0);
  const thanksRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (sentTo !== null) thanksRef.current?.focus();
  }, [sentTo]);

  return (
    <Container size="lg" py={{ base: 40, sm: 64 }}>
      <HeroHeader title={t('contact.title')} subtitle={t('contact.subtitle')} mb={48} />
      <Grid gutter="xl">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper component="section" aria-labelledby="contact-main-title" withBorder p="lg">
            {sentTo === null ? (
              <>
                <Title order={2} fz="h3" id="contact-main-title" mb="lg">
                  {t('contact.formTitle')}
                </Title>
                <ContactForm
                  key={round}
                  autoFocus={round > 0}
                  onSent={(email) => setSentTo(email)}
                />
              </>
            ) : (
              <Stack align="center" ta="center" gap="md" py="xl">
                <ThemeIcon size={64} radius="xl" color="green" variant="light" aria-hidden>
                  <IconCircleCheck size={40} />
                </ThemeIcon>
                <Title order={2} id="contact-main-title" ref={thanksRef} tabIndex={-1}>
                  {t('contact.success.title')}
                </Title>
                <Text maw={480}>{t('contact.success.text', { email: sentTo })}</Text>
                <Button
                  variant="light"
                  onClick={() => {
                    setSentTo(null);
                    setRound((r) => r + 1);
                  }}
                >
                  {t('contact.success.sendAnother')}
                </Button>
              </Stack>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <ContactInfo />
        </Grid.Col>
      </Grid>
    </Container>
  );
}
