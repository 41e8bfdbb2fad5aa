import { Alert, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAd2, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from '@web/lib/router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EditDialog } from '../../components/EditDialog';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Pager } from '../../components/Pager';
import { AdForm } from './AdForm';
import { AdRow } from './AdRow';
import { useAd, useDeleteAd, useMyAds, useSaveAd, useSetAdStatus, type StatusAction } from './api';
import { adErrorMessage } from './errors';
import type { Ad } from './model';
import { pageFromParams } from '../../lib/paging';
import { LoadState } from './LoadState';
import { PageHeader } from '../../components/PageHeader';

const TABS = ['all', 'active', 'paused', 'draft'] as const;
type Tab = (typeof TABS)[number];

/** /profile/{id}/ads: the author's ads by status, with edit (a modal), pause/resume, delete. */
export default function AdsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('ads.list.pageTitle'));
  const { userId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as Tab)
    : 'all';
  const page = pageFromParams(params);
  const ads = useMyAds(tab, page);
  const data = ads.data;
  const [editing, setEditing] = useState<Ad | null>(null);
  const [deleting, setDeleting] = useState<Ad | null>(null);
  // An error that arrived with the navigation (the create page) or from an action here.
  const [banner, setBanner] = useState<string | null>(
    (location.state as { error?: string } | null)?.error ?? null,
  );
  const setStatus = useSetAdStatus();
  const remove = useDeleteAd();

  const go = (patch: { status?: Tab; page?: number }) => {
    const next = new URLSearchParams(params);
    if (patch.status !== undefined) {
      if (patch.status === 'all') next.delete('status');
      else next.set('status', patch.status);
      next.delete('page');
    }
    if (patch.page !== undefined) {
      if (patch.page <= 1) next.delete('page');
      else next.set('page', String(patch.page));
    }
    setParams(next);
  };

  const changeStatus = async (ad: Ad, action: StatusAction) => {
    setBanner(null);
    try {
      await setStatus.mutateAsync({ id: ad.id, action });
      notifications.show({
        color: 'green',
        message: t(`ads.list.done.${action}`, { title: ad.title }),
      });
    } catch (err) {
      setBanner(adErrorMessage(err, 'status', t));
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBanner(null);
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('ads.list.deleted') });
      setDeleting(null);
    } catch (err) {
      setDeleting(null);
      setBanner(adErrorMessage(err, 'delete', t));
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <PageHeader compact title={t('ads.list.title')} subtitle={t('ads.list.subtitle')} />
        <Button
          component={Link}
          to={`/profile/${userId}/ads/new`}
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          {t('ads.list.create')}
        </Button>
      </Group>
      {banner && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel={t('ads.list.dismiss')}
          onClose={() => {
            setBanner(null);
            if (location.state) navigate('.', { replace: true, state: null });
          }}
          styles={{ message: { color: 'var(--mantine-color-error)' } }}
          data-testid="ads-banner"
        >
          {banner}
        </Alert>
      )}
      <Tabs value={tab} onChange={(v) => go({ status: (v as Tab) ?? 'all' })}>
        <Tabs.List aria-label={t('ads.list.tabsLabel')}>
          {TABS.map((s) => (
            <Tabs.Tab key={s} value={s}>
              {t(`ads.list.tabs.${s}`)}
              {data ? ` (${data.counts[s]})` : ''}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((s) => (
          <Tabs.Panel key={s} value={s} pt="md">
            {s === tab && (
              <Stack gap="md" aria-busy={ads.isFetching}>
                <LoadState query={ads} errorMessage={() => adErrorMessage(ads.error, 'load', t)} />
                {data && data.total === 0 && (
                  <Stack align="center" ta="center" py="xl" gap="xs">
                    <IconAd2 size={48} stroke={1.2} aria-hidden />
                    <Title order={2} fz="lg">
                      {tab === 'all' ? t('ads.list.empty.title') : t(`ads.list.empty.${tab}`)}
                    </Title>
                    <Text c="dimmed">{t('ads.list.empty.text')}</Text>
                    {tab === 'all' && (
                      <Button component={Link} to={`/profile/${userId}/ads/new`} mt="xs">
                        {t('ads.list.createFirst')}
                      </Button>
                    )}
                  </Stack>
                )}
                {data && data.items.length > 0 && (
                  <Stack
                    component="ul"
                    gap="md"
                    style={{ listStyle: 'none', padding: 0, margin: 0 }}
                  >
                    {data.items.map((ad) => (
                      <li key={ad.id}>
                        <AdRow
                          ad={ad}
                          analyticsTo={`/profile/${userId}/ads/${ad.id}/analytics`}
                          busy={setStatus.isPending && setStatus.variables?.id === ad.id}
                          onEdit={() => setEditing(ad)}
                          onDelete={() => setDeleting(ad)}
                          onStatus={(a) => void changeStatus(ad, a)}
                        />
                      </li>
                    ))}
                  </Stack>
                )}
                {data && (
                  <Pager
                    page={data.page}
                    pageSize={data.pageSize}
                    total={data.total}
                    onChange={(p) => go({ page: p })}
                  />
                )}
              </Stack>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
      <EditAdModal ad={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        title={t('ads.delete.title')}
        confirmLabel={t('ads.delete.confirm')}
        onConfirm={() => void confirmDelete()}
        loading={remove.isPending}
      >
        {t('ads.delete.text', { title: deleting?.title ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}

/** Edit opens over the list, pre-filled from the ad as the server has it now. */
function EditAdModal({ ad, onClose }: { ad: Ad | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useAd(ad?.id);
  const save = useSaveAd();
  return (
    <EditDialog
      opened={!!ad}
      onClose={onClose}
      title={t('ads.edit.title')}
      pending={detail.isPending}
      error={detail.isError ? adErrorMessage(detail.error, 'load', t) : null}
    >
      {detail.data && ad && (
        <AdForm
          key={detail.data.id + detail.data.updatedAt}
          ad={detail.data}
          submitLabel={t('ads.edit.save')}
          onCancel={onClose}
          onSubmit={async (body) => {
            await save.mutateAsync({ id: ad.id, body });
            notifications.show({ color: 'green', message: t('ads.edit.saved') });
            onClose();
          }}
        />
      )}
    </EditDialog>
  );
}
