import { Badge, Center, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { forwardRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { FRIEND_SEARCH_DEBOUNCE_MS, FRIEND_SEARCH_MIN_QUERY } from '@shared/connections';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFriendSearch } from './api';
import { ConnectionActions } from './ConnectionActions';
import { MemberLine } from './MemberLine';
import { Pager } from '../../components/Pager';

/** Find members by username or name and ask them to be friends. */
export const FindFriends = forwardRef<HTMLInputElement, { me: string }>(function FindFriends(
  { me },
  inputRef,
) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const [q] = useDebouncedValue(text.trim(), FRIEND_SEARCH_DEBOUNCE_MS);
  const search = useFriendSearch(q, page);
  const ready = q.length >= FRIEND_SEARCH_MIN_QUERY;
  return (
    <section aria-labelledby="find-friends">
      <Title order={2} fz="xl" id="find-friends" mb="sm">
        {t('connections.search.heading')}
      </Title>
      <TextInput
        ref={inputRef}
        type="search"
        label={t('connections.search.label')}
        description={t('connections.search.hint')}
        placeholder={t('connections.search.placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        maxLength={100}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setPage(1);
        }}
        mb="md"
      />
      {ready && search.isPending && (
        <Center py="md">
          <Loader size="sm" role="status" aria-label={t('common.loading')} />
        </Center>
      )}
      {ready && search.isError && (
        <ErrorAlert title={t('connections.errors.search')}>{search.error.message}</ErrorAlert>
      )}
      {ready && search.data && search.data.items.length === 0 && (
        <Text c="dimmed" role="status">
          {t('connections.search.noResults', { q })}
        </Text>
      )}
      {ready && search.data && search.data.items.length > 0 && (
        <>
          <Stack
            component="ul"
            aria-label={t('connections.search.resultsLabel')}
            gap="sm"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
          >
            {search.data.items.map((r) => (
              <Paper
                component="li"
                key={r.member.id}
                withBorder
                p="sm"
                aria-label={r.member.displayName}
              >
                <Stack gap="xs">
                  <MemberLine member={r.member} />
                  {r.state === 'accepted' ? (
                    <Badge variant="light" color="green.9">
                      {t('connections.search.friends')}
                    </Badge>
                  ) : (
                    <ConnectionActions
                      me={me}
                      member={r.member}
                      state={r.state}
                      connectionId={r.connectionId}
                      size="xs"
                    />
                  )}
                </Stack>
              </Paper>
            ))}
          </Stack>
          <Pager {...search.data} onChange={setPage} />
        </>
      )}
    </section>
  );
});
