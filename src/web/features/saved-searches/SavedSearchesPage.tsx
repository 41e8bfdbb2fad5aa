import { Button, Card, Group, Modal, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconBookmarks, IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  SAVED_SEARCH_NAME_MAX,
  SAVED_SEARCHES_PAGE_SIZE,
  type SavedSearch,
} from '@shared/schemas/savedSearches';
import { ApiError } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { pageCount } from '../../lib/paging';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { AsyncSection, EmptyState } from '../../components/AsyncSection';
import { ButtonLink } from '../../components/ButtonLink';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormActions } from '../../components/FormActions';
import { PageNumbers } from '../../components/PageNumbers';
import { useDeleteSavedSearch, useSavedSearches, useUpdateSavedSearch } from './api';
import { describeFilters } from './filters';

/** /profile/:userId/saved-searches — the member's saved searches: run, rename, alerts, delete. */
export default function SavedSearchesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('savedSearches.pageTitle'));
  const [page, setPage] = useState(1);
  const searches = useSavedSearches(page);
  const [renaming, setRenaming] = useState<SavedSearch | null>(null);
  const [deleting, setDeleting] = useState<SavedSearch | null>(null);
  const remove = useDeleteSavedSearch();
  const data = searches.data;
  const pages = data ? pageCount(data.total, SAVED_SEARCHES_PAGE_SIZE) : 1;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('savedSearches.pageTitle')}
        </Title>
        <Text c="dimmed">{t('savedSearches.intro')}</Text>
        {data && data.total > 0 && (
          <Text size="sm" c="dimmed" data-testid="saved-searches-count">
            {t('savedSearches.count', { count: data.total, max: data.max })}
          </Text>
        )}
      </div>
      <AsyncSection
        query={searches}
        errorTitle={t('savedSearches.errors.loadFailed')}
        showErrorMessage
        retryLabel={t('common.tryAgain')}
        isEmpty={(d) => d.total === 0}
        empty={
          <EmptyState
            icon={<IconBookmarks size={48} stroke={1.2} aria-hidden />}
            title={t('savedSearches.empty.title')}
            text={t('savedSearches.empty.text')}
          >
            <ButtonLink to="/library" mt="xs">
              {t('savedSearches.empty.action')}
            </ButtonLink>
          </EmptyState>
        }
      >
        {(d) => (
          <>
            <Stack
              component="ul"
              gap="sm"
              aria-label={t('savedSearches.listLabel')}
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {d.items.map((s) => (
                <li key={s.id}>
                  <SavedSearchCard
                    search={s}
                    onRename={() => setRenaming(s)}
                    onDelete={() => setDeleting(s)}
                  />
                </li>
              ))}
            </Stack>
            {pages > 1 && (
              <PageNumbers mt="md" pages={pages} page={page} onChange={setPage} siblings={0} />
            )}
          </>
        )}
      </AsyncSection>
      {renaming && <RenameDialog search={renaming} onClose={() => setRenaming(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        title={t('savedSearches.deleteLabel', { name: deleting?.name ?? '' })}
        confirmLabel={t('savedSearches.delete')}
        loading={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              notify('green', t('savedSearches.deleted'));
              if (data && data.items.length === 1 && page > 1) setPage(page - 1);
            },
          })
        }
      >
        {t('savedSearches.deleteConfirm', { name: deleting?.name ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}

function SavedSearchCard({
  search,
  onRename,
  onDelete,
}: {
  search: SavedSearch;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateSavedSearch();
  const parts = describeFilters(search.filters, t, currentLanguage());
  const toggle = (notifyOn: boolean) =>
    update.mutate(
      { id: search.id, notify: notifyOn },
      {
        onSuccess: () =>
          notify(
            'green',
            t(notifyOn ? 'savedSearches.alertsOn' : 'savedSearches.alertsOff', {
              name: search.name,
            }),
          ),
        onError: (err) => notify('red', err.message),
      },
    );
  return (
    <Card withBorder padding="md" component="article" aria-label={search.name}>
      <Stack gap="xs">
        <Title order={2} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {search.name}
        </Title>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {parts.join(' · ')}
        </Text>
        <Switch
          checked={update.isPending ? (update.variables?.notify ?? search.notify) : search.notify}
          onChange={(e) => toggle(e.currentTarget.checked)}
          label={t('savedSearches.alerts')}
          aria-label={t('savedSearches.alertsLabel', { name: search.name })}
        />
        <Group gap="xs" wrap="wrap">
          <ButtonLink
            to={search.libraryPath}
            icon={IconSearch}
            size="xs"
            aria-label={t('savedSearches.openLabel', { name: search.name })}
          >
            {t('savedSearches.open')}
          </ButtonLink>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={onRename}
            aria-label={t('savedSearches.renameLabel', { name: search.name })}
          >
            {t('savedSearches.rename')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={onDelete}
            aria-label={t('savedSearches.deleteLabel', { name: search.name })}
          >
            {t('savedSearches.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function RenameDialog({ search, onClose }: { search: SavedSearch; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateSavedSearch();
  const [name, setName] = useState(search.name);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    update.mutate(
      { id: search.id, name },
      {
        onSuccess: () => {
          notify('green', t('savedSearches.renamed'));
          onClose();
        },
        onError: (err) =>
          setError(err instanceof ApiError && err.fields?.name ? err.fields.name : err.message),
      },
    );
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('savedSearches.renameLabel', { name: search.name })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('savedSearches.save.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={SAVED_SEARCH_NAME_MAX}
            required
            error={error}
            data-autofocus
          />
          <FormActions
            cancelLabel={t('common.cancel')}
            submitLabel={t('savedSearches.rename')}
            onCancel={onClose}
            loading={update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
