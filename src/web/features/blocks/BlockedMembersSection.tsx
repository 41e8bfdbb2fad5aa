import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link } from '@web/lib/router';
import { formatDate } from '@shared/format';
import type { BlockedMember } from '@shared/blocks';
import { Pager } from '../../components/Pager';
import { UserAvatar } from '../../components/UserAvatar';
import { useBlockedMembers } from './api';
import { useUnblock } from './BlockControl';
import { SectionCard } from '../../components/SectionCard';

function BlockedRow({ item, language }: { item: BlockedMember; language: string }) {
  const { t } = useTranslation();
  const { member } = item;
  const unblock = useUnblock(member.id, member.displayName);
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" component="li">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <UserAvatar
          name={member.displayName}
          avatarUrl={member.avatarUrl}
          avatarSeed={member.avatarSeed}
          size="md"
          decorative
        />
        <Stack gap={0} miw={0}>
          <Text fw={600} truncate="end" component={Link} to={`/user/${member.id}`}>
            {member.displayName}
          </Text>
          <Text size="xs" c="dimmed">
            {t('blocks.blockedSince', { date: formatDate(item.blockedAt, language) })}
          </Text>
        </Stack>
      </Group>
      <Button
        size="compact-sm"
        variant="default"
        loading={unblock.pending}
        onClick={unblock.run}
        aria-label={`${t('blocks.unblock')} ${member.displayName}`}
      >
        {t('blocks.unblock')}
      </Button>
    </Group>
  );
}

/** Settings: the members I blocked, 20 a page, each with "Unblock". */
export function BlockedMembersSection() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useBlockedMembers(page);
  const language = i18n.resolvedLanguage ?? i18n.language;
  return (
    <SectionCard id="blocked" title={t('blocks.settingsTitle')}>
      <Text size="sm" c="dimmed">
        {t('blocks.settingsIntro')}
      </Text>
      {list.isError ? (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />}>
          {t('blocks.loadFailed')}
        </Alert>
      ) : list.data && list.data.total === 0 ? (
        <Text size="sm">{t('blocks.settingsEmpty')}</Text>
      ) : list.data ? (
        <>
          <Stack
            gap="sm"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            data-testid="blocked-members"
          >
            {list.data.items.map((item) => (
              <BlockedRow key={item.member.id} item={item} language={language} />
            ))}
          </Stack>
          <Pager {...list.data} onChange={setPage} />
        </>
      ) : null}
    </SectionCard>
  );
}
