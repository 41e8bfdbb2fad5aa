import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { QueueEntry } from '@shared/moderation';
import { kindName } from '../moderation';
import type { Pending } from './ActionDialog';

/** One entry of the queue: the content, its reports and the actions on it. */
export function QueueCard({
  entry,
  onAction,
}: {
  entry: QueueEntry;
  onAction: (p: Pending) => void;
}) {
  const { t } = useTranslation();
  const item = entry.item;
  const base = { kind: entry.kind, itemId: entry.itemId, reason: '' };
  const act = (action: 'dismiss' | 'hide' | 'restore' | 'reject') =>
    onAction({ action: { action, ...base }, title: t(`admin.dialog.title.${action}`) });
  return (
    <Paper
      component="li"
      withBorder
      p="md"
      data-testid="queue-entry"
      aria-labelledby={`q-${entry.itemId}`}
    >
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" color="gray" c="dark.6">
            {kindName(t, entry.kind)}
          </Badge>
          <Badge variant="light" color="red" c="red.9">
            {t('admin.queue.count', { count: entry.count })}
          </Badge>
          {entry.reasons.map((r) => (
            <Badge key={r} variant="outline" color="gray" c="dark.6">
              {t(`moderation.reasons.${r}`)}
            </Badge>
          ))}
          {item?.hidden && (
            <Badge color="dark" variant="filled">
              {t(item.rejectable ? 'admin.queue.rejected' : 'admin.queue.hidden')}
            </Badge>
          )}
          {item?.authorSuspended && (
            <Badge color="dark" variant="filled">
              {t('admin.queue.authorSuspended')}
            </Badge>
          )}
        </Group>
        {item ? (
          <>
            <Title order={2} fz="lg" id={`q-${entry.itemId}`} style={{ overflowWrap: 'anywhere' }}>
              {item.title}
            </Title>
            {item.authorName && (
              <Text size="sm" c="dimmed">
                {t('admin.queue.by', { name: item.authorName })}
              </Text>
            )}
            {item.excerpt && (
              <Text
                size="sm"
                style={{
                  whiteSpace: 'pre-line',
                  overflowWrap: 'anywhere',
                  borderLeft: '3px solid var(--mantine-color-gray-4)',
                  paddingLeft: 10,
                }}
              >
                {item.excerpt}
              </Text>
            )}
            {item.link && (
              <Anchor component={Link} to={item.link} size="sm">
                {t('admin.queue.open')}
              </Anchor>
            )}
          </>
        ) : (
          <Text id={`q-${entry.itemId}`} c="dimmed">
            {t('admin.queue.itemMissing')}
          </Text>
        )}
        <Text size="sm" fw={600} mt={4}>
          {t('admin.queue.recent')}
        </Text>
        <Stack gap={2} component="ul" style={{ margin: 0, paddingLeft: 18 }}>
          {entry.reports.map((r, i) => (
            <Text component="li" size="sm" key={i} style={{ overflowWrap: 'anywhere' }}>
              {t(`moderation.reasons.${r.reason}`)} · {r.reporter}
              {r.text ? ` — ${r.text}` : ''}
            </Text>
          ))}
        </Stack>
        <Group gap="xs" mt="xs" wrap="wrap">
          <Button size="compact-sm" variant="default" onClick={() => act('dismiss')}>
            {t('admin.actions.dismiss')}
          </Button>
          {item &&
            (item.hidden ? (
              <Button size="compact-sm" variant="default" onClick={() => act('restore')}>
                {t('admin.actions.restore')}
              </Button>
            ) : item.rejectable ? (
              <Button size="compact-sm" color="red.9" onClick={() => act('reject')}>
                {t('admin.actions.reject')}
              </Button>
            ) : (
              <Button size="compact-sm" color="red.9" onClick={() => act('hide')}>
                {t('admin.actions.hide')}
              </Button>
            ))}
          {item?.authorId && !item.authorSuspended && (
            <Button
              size="compact-sm"
              color="dark"
              onClick={() =>
                onAction({
                  action: { action: 'suspend', userId: item.authorId!, ...base },
                  title: t('admin.dialog.title.suspend', { name: item.authorName ?? '' }),
                })
              }
            >
              {t('admin.actions.suspend')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
