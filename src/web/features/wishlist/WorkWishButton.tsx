import { Text } from '@mantine/core';
import { IconHeart, IconHeartFilled } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { CardCornerToggle } from '../../components/CardCornerToggle';
import { useToggleWorkWish, useWorkWish } from './api';

/**
 * A work's page: adds the book, in every edition and language, to the member's wishlist (a new
 * copy of any of them is announced as a wished book's is), or removes it. A visitor signs in.
 */
export function WorkWishButton({ workId, title }: { workId: string; title: string }) {
  const { t } = useTranslation();
  const signedIn = useSession().status === 'signed-in';
  const wish = useWorkWish(workId, signedIn);
  const toggle = useToggleWorkWish(workId);
  const wished = signedIn && !!wish.data?.wished;
  return (
    <div>
      <CardCornerToggle
        on={wished}
        pending={signedIn && (wish.isPending || toggle.isPending)}
        onToggle={(next) => toggle.mutate(next)}
        label={
          !signedIn
            ? t('works.wish.signIn', { title })
            : t(wished ? 'works.wish.removeLabel' : 'works.wish.addLabel', { title })
        }
        text={wished ? t('works.wish.onList') : t('works.wish.add')}
        icon={
          wished ? <IconHeartFilled size={18} aria-hidden /> : <IconHeart size={18} aria-hidden />
        }
        variant="button"
        corner="right"
        color="red"
        testId="work-wish"
      />
      <Text size="xs" c="dimmed" mt={4}>
        {t('works.wish.hint')}
      </Text>
      {toggle.isError && (
        <Text size="sm" role="alert" c="var(--mantine-color-error)">
          {toggle.error.message}
        </Text>
      )}
    </div>
  );
}
