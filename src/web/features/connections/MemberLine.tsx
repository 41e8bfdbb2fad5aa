import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from '@web/lib/router';
import type { ConnectionMember } from '@shared/connections';
import { UserAvatar } from '../../components/UserAvatar';

/** Avatar, name linking to the public profile, @username and a detail line. */
export function MemberLine({ member, detail }: { member: ConnectionMember; detail?: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
      <UserAvatar
        name={member.displayName}
        avatarUrl={member.avatarUrl}
        avatarSeed={member.avatarSeed}
        size={48}
      />
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Anchor
          component={Link}
          to={`/user/${member.id}`}
          fw={600}
          style={{ overflowWrap: 'anywhere' }}
        >
          {member.displayName}
        </Anchor>
        {member.username && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            @{member.username}
          </Text>
        )}
        {detail}
      </Stack>
    </Group>
  );
}
