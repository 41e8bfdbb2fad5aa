import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconBookmarkPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSearchParams } from '@web/lib/router';
import { useSession } from '@web/lib/session';
import { hasCriteria, SAVED_SEARCH_NAME_MAX } from '@shared/schemas/savedSearches';
import { ApiError } from '../../lib/api';
import { ButtonLink } from '../../components/ButtonLink';
import { FormActions } from '../../components/FormActions';
import { useSaveSearch } from './api';
import { filtersFromParams, suggestedName } from './filters';

/**
 * "Save this search" on the library: the filters in the address bar, with a name, become one of
 * the member's saved searches. Shown to members only; loaded lazily (index.ts).
 */
export default function SaveSearchButton() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [savedName, setSavedName] = useState<string | null>(null);
  const save = useSaveSearch();
  if (session.status !== 'signed-in') return null;

  const filters = filtersFromParams(params);
  const open = () => {
    setName(suggestedName(filters, t));
    setError(null);
    setSavedName(null);
    save.reset();
    setOpened(true);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    save.mutate(
      { name, filters },
      {
        onSuccess: (s) => setSavedName(s.name),
        onError: (err) =>
          setError(err instanceof ApiError && err.fields?.name ? err.fields.name : err.message),
      },
    );
  };

  return (
    <>
      <Button
        variant="default"
        leftSection={<IconBookmarkPlus size={16} aria-hidden />}
        onClick={open}
      >
        {t('savedSearches.save.button')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('savedSearches.save.title')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {savedName !== null ? (
          <Stack>
            <Text role="status">{t('savedSearches.save.saved')}</Text>
            <ButtonLink to={`/profile/${session.user.id}/saved-searches`} variant="light">
              {t('savedSearches.save.see')}
            </ButtonLink>
          </Stack>
        ) : !hasCriteria(filters) ? (
          <Text>{t('savedSearches.save.nothing')}</Text>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput
                label={t('savedSearches.save.name')}
                description={t('savedSearches.save.nameHint', { max: SAVED_SEARCH_NAME_MAX })}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={SAVED_SEARCH_NAME_MAX}
                required
                error={error}
                data-autofocus
              />
              <FormActions
                cancelLabel={t('common.cancel')}
                submitLabel={t('savedSearches.save.submit')}
                onCancel={() => setOpened(false)}
                loading={save.isPending}
              />
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
