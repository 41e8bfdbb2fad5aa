import { Anchor, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useNavigate, useParams } from '@web/lib/router';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AdForm } from './AdForm';
import { useSaveAd } from './api';

/** /profile/{id}/ads/new: the form; a new ad is a draft until its author activates it. */
export default function AdCreatePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('ads.create.pageTitle'));
  const { userId } = useParams();
  const navigate = useNavigate();
  const save = useSaveAd();
  const list = `/profile/${userId}/ads`;
  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to={list} size="sm">
        <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
        {t('ads.create.back')}
      </Anchor>
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('ads.create.title')}
        </Title>
        <Text c="dimmed">{t('ads.create.subtitle')}</Text>
      </div>
      <AdForm
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
    </Stack>
  );
}
