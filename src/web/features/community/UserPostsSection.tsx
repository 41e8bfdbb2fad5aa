import { Button, Group, Text, Title } from '@mantine/core';
import { IconMessagePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { FeedList } from './FeedList';
import { PostFormDialog } from './PostFormDialog';
import { useUserPosts } from './api';
import type { Post } from './types';

/**
 * The public profile's recent posts (newest first, 20 a page). The owner, and only the owner, has
 * the add-post button, which opens the same dialog as the community page.
 */
export function UserPostsSection({
  userId,
  me,
  own,
}: {
  userId: string;
  me: string | null;
  own: boolean;
}) {
  const { t } = useTranslation();
  const posts = useUserPosts(userId);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Post | null>(null);
  return (
    <section aria-labelledby="recent-posts">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="xl" id="recent-posts">
          {t('community.profile.heading')}
        </Title>
        {own && (
          <Button
            size="sm"
            leftSection={<IconMessagePlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
          >
            {t('community.profile.addPost')}
          </Button>
        )}
      </Group>
      <FeedList
        query={posts}
        me={me}
        label={t('community.profile.heading')}
        onEdit={setEditing}
        empty={<Text c="dimmed">{t('community.profile.empty')}</Text>}
      />
      <PostFormDialog opened={creating} onClose={() => setCreating(false)} />
      <PostFormDialog opened={!!editing} post={editing} onClose={() => setEditing(null)} />
    </section>
  );
}
