import { Anchor, Group, Text, type MantineSpacing } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';

/**
 * Why a book of one's own offers no edit, status or delete: an open deal holds it, and it changes
 * only through the deal's steps, in the conversation (decision 0088).
 */
export function InDealNote({ mt }: { mt?: MantineSpacing }) {
  const { t } = useTranslation();
  const session = useSession();
  const chats = session.status === 'signed-in' ? `/profile/${session.user.id}/chats` : null;
  return (
    <Group gap={6} mt={mt} wrap="nowrap" align="flex-start" data-testid="in-deal-note">
      <IconLock size={16} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
      <Text size="sm">
        {t('myBooks.inDeal')}{' '}
        {chats && (
          <Anchor component={Link} to={chats} inherit>
            {t('myBooks.openChats')}
          </Anchor>
        )}
      </Text>
    </Group>
  );
}
