import { Anchor, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconClock, IconMail, IconMapPin } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { SocialLinks } from '../../components/SocialLinks';

/** One term and its description; the wrapping div is the grouping a <dl> allows. */
function Item({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div>
      <Group component="dt" wrap="nowrap" gap="sm" fw={700} fz="sm">
        <ThemeIcon size={32} radius="md" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
        {label}
      </Group>
      <Text component="dd" ml={44} mt={2} mb={0} fz="sm">
        {children}
      </Text>
    </div>
  );
}

/** The side panel: how else to reach the team, and what to expect. */
export function ContactInfo() {
  const { t } = useTranslation();
  const email = t('contact.info.emailValue');
  return (
    <Paper
      component="aside"
      aria-labelledby="contact-info-title"
      withBorder
      p="lg"
      bg="brown.0"
      h="100%"
    >
      <Title order={2} fz="h3" id="contact-info-title" mb="lg">
        {t('contact.info.title')}
      </Title>
      <Stack component="dl" gap="lg" m={0}>
        <Item icon={<IconMail size={20} />} label={t('contact.info.email')}>
          <Anchor href={`mailto:${email}`} c="brown.8" style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Anchor>
        </Item>
        <Item icon={<IconMapPin size={20} />} label={t('contact.info.office')}>
          {t('contact.info.officeValue')}
        </Item>
        <Item icon={<IconClock size={20} />} label={t('contact.info.responseTime')}>
          {t('contact.info.responseValue')}
          <br />
          {t('contact.info.languages')}
        </Item>
      </Stack>
      <Title order={3} fz="sm" mt="xl" mb="xs">
        {t('contact.info.social')}
      </Title>
      <SocialLinks variant="default" size="lg" iconSize={20} label={t('contact.info.social')} />
    </Paper>
  );
}
