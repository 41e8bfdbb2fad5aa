import {
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@web/lib/reactI18n';
import { LANGUAGES, type Language } from '@shared/constants';
import { DISPLAY_NAME_MAX_LENGTH } from '@shared/names';
import { USERNAME_PATTERN, type UpdateProfileInput } from '@shared/schemas/profile';
import { ApiError } from '../../lib/api';
import { ME_QUERY_KEY } from '../../lib/session';
import { notify } from '../../lib/notify';
import { updateMe, type Me } from './api';

export const BIO_MAX_LENGTH = 500;
const PLACE_MAX_LENGTH = 100;

interface Values {
  displayName: string;
  username: string;
  bio: string;
  locationCity: string;
  locationCountry: string;
  preferredLanguage: Language;
}

const valuesOf = (me: Me): Values => ({
  displayName: me.displayName,
  username: me.username ?? '',
  bio: me.bio ?? '',
  locationCity: me.locationCity ?? '',
  locationCountry: me.locationCountry ?? '',
  preferredLanguage: me.preferredLanguage,
});

/**
 * Who the member is to others: display name, username, bio, city and country, and the language
 * of the site and of their e-mails. Sends only the fields that changed (PATCH /api/me), so a
 * change made meanwhile in another tab to another field is never overwritten.
 */
export function ProfileForm({ me, onChanged }: { me: Me; onChanged: (me: Me) => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const initial = valuesOf(me);
  const form = useForm<Values>({
    initialValues: initial,
    validate: {
      displayName: (v) =>
        !v.trim()
          ? t('validation.required')
          : v.trim().length > DISPLAY_NAME_MAX_LENGTH
            ? t('validation.tooLong')
            : null,
      username: (v) =>
        USERNAME_PATTERN.test(v.trim()) ? null : t('profile.errors.usernameInvalid'),
      bio: (v) => (v.trim().length > BIO_MAX_LENGTH ? t('validation.tooLong') : null),
      locationCity: (v) => (v.trim().length > PLACE_MAX_LENGTH ? t('validation.tooLong') : null),
      locationCountry: (v) => (v.trim().length > PLACE_MAX_LENGTH ? t('validation.tooLong') : null),
    },
  });

  const save = useMutation({
    mutationFn: (patch: UpdateProfileInput) => updateMe(patch),
    onSuccess: (updated) => {
      queryClient.setQueryData(ME_QUERY_KEY, updated);
      onChanged(updated);
      // Pages that show the member (their profile, their books) read again at once.
      void queryClient.invalidateQueries({ queryKey: ['users', updated.id] });
      form.setValues(valuesOf(updated));
      form.resetDirty(valuesOf(updated));
      // The site speaks the member's preferred language; the notice is said in it.
      const switching = !(i18n.resolvedLanguage ?? '').startsWith(updated.preferredLanguage);
      void (switching ? i18n.changeLanguage(updated.preferredLanguage) : Promise.resolve()).then(
        () => notify('green', i18n.t('settings.profile.saved')),
      );
    },
    onError: (err) => {
      if (err instanceof ApiError && err.fields) form.setErrors(err.fields);
      else notify('red', err.message);
    },
  });

  const submit = form.onSubmit((values) => {
    const patch: Record<string, string> = {};
    for (const key of Object.keys(values) as (keyof Values)[]) {
      const value = values[key].trim();
      if (value !== initial[key].trim()) patch[key] = value;
    }
    if (!Object.keys(patch).length) return notify('orange', t('settings.profile.noChanges'));
    save.mutate(patch as UpdateProfileInput);
  });

  const bioLength = form.values.bio.trim().length;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="settings-profile-title">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('settings.profile.hint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('auth.fields.displayName')}
            description={t('auth.fields.displayNameHint')}
            autoComplete="nickname"
            withAsterisk
            maxLength={DISPLAY_NAME_MAX_LENGTH + 10}
            {...form.getInputProps('displayName')}
          />
          <TextInput
            label={t('auth.fields.username')}
            description={t('auth.fields.usernameHint')}
            autoComplete="username"
            withAsterisk
            maxLength={40}
            {...form.getInputProps('username')}
          />
        </SimpleGrid>
        <Textarea
          label={t('settings.profile.bio')}
          description={t('settings.profile.bioHint')}
          autosize
          minRows={3}
          maxRows={8}
          {...form.getInputProps('bio')}
          aria-describedby="settings-bio-count"
        />
        <Text
          id="settings-bio-count"
          size="xs"
          c={bioLength > BIO_MAX_LENGTH ? 'red' : 'dimmed'}
          mt={-8}
          aria-live="polite"
          data-testid="settings-bio-count"
        >
          {t('settings.profile.bioCount', { count: bioLength, max: BIO_MAX_LENGTH })}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('settings.profile.city')}
            autoComplete="address-level2"
            {...form.getInputProps('locationCity')}
          />
          <TextInput
            label={t('settings.profile.country')}
            autoComplete="country-name"
            {...form.getInputProps('locationCountry')}
          />
        </SimpleGrid>
        <NativeSelect
          label={t('settings.profile.language')}
          description={t('settings.profile.languageHint')}
          data={LANGUAGES.map((l) => ({ value: l, label: t(`nav.languages.${l}`) }))}
          {...form.getInputProps('preferredLanguage')}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('settings.profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
