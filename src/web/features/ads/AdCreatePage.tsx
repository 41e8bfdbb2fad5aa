import { Anchor, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AD_LANGUAGES, type AdLanguage } from '@shared/schemas/ads';
import { api } from '../../lib/api';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useNavigate, useParams } from '@web/lib/router';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AdForm } from './AdForm';
import { useSaveAd } from './api';
import { PageHeader } from '../../components/PageHeader';

/** /profile/{id}/ads/new: the form; a new ad is a draft until its author activates it. */
export default function AdCreatePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('ads.create.pageTitle'));
  const { userId } = useParams();
  const navigate = useNavigate();
  const save = useSaveAd();
  const list = `/profile/${userId}/ads`;
  // The book's language starts as the author's own (their preferred language).
  const me = useQuery({
    queryKey: ['ads', 'author-language'],
    queryFn: ({ signal }) => api<{ preferredLanguage: string }>('/api/me', { signal }),
    staleTime: 60_000,
  });
  const own = me.data?.preferredLanguage;
  const language = (AD_LANGUAGES as readonly string[]).includes(own ?? '')
    ? (own as AdLanguage)
    : undefined;
  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to={list} size="sm">
        <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
        {t('ads.create.back')}
      </Anchor>
      <PageHeader compact title={t('ads.create.title')} subtitle={t('ads.create.subtitle')} />
      {me.isPending ? (
        <Loader role="status" aria-label={t('common.loading')} />
      ) : (
        <AdForm
          language={language}
          submitLabel={t('ads.create.submit')}
          onCancel={() => navigate(list)}
          onSubmit={async (body) => {
            const ad = await save.mutateAsync({ body });
            notifications.show({
              color: 'green',
              message: t('ads.create.saved', { title: ad.title }),
            });
            navigate(`${list}?status=draft`);
          }}
        />
      )}
    </Stack>
  );
}
