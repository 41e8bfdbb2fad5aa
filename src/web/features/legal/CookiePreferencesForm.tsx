import { Button, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  OPTIONAL_CATEGORIES,
  openCookiePreferences,
  saveCookiePreferences,
  useCookiePreferences,
  type CookiePreferences,
  type OptionalCategory,
} from '../cookies';

type Choice = Pick<CookiePreferences, OptionalCategory>;

const choiceOf = (p: CookiePreferences): Choice => ({
  functional: p.functional,
  analytics: p.analytics,
  marketing: p.marketing,
});

/** The cookie policy's switches: they show the current choice and save a new one. */
export function CookiePreferencesForm() {
  const { t } = useTranslation();
  const current = useCookiePreferences();
  const [draft, setDraft] = useState<{ base: CookiePreferences; choice: Choice }>({
    base: current.preferences,
    choice: choiceOf(current.preferences),
  });
  // A choice saved elsewhere (banner, preferences dialog) replaces the unsaved switches.
  const choice = draft.base === current.preferences ? draft.choice : choiceOf(current.preferences);
  const [saving, setSaving] = useState(false);

  const toggle = (category: OptionalCategory, on: boolean) =>
    setDraft({ base: current.preferences, choice: { ...choice, [category]: on } });

  const unavailable = () => notifications.show({ color: 'red', message: t('cookies.unavailable') });

  const save = async () => {
    setSaving(true);
    try {
      await saveCookiePreferences(choice);
      notifications.show({ color: 'green', message: t('cookies.page.saved') });
    } catch {
      unavailable();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md">
      <Text c="dimmed" fz="sm" aria-live="polite">
        {current.decided ? t('cookies.page.statusDecided') : t('cookies.page.statusDefault')}
      </Text>
      <Switch
        checked
        disabled
        label={t('cookies.categories.essential.title')}
        description={t('cookies.page.alwaysOn')}
      />
      {OPTIONAL_CATEGORIES.map((category) => (
        <Switch
          key={category}
          checked={choice[category]}
          onChange={(e) => toggle(category, e.currentTarget.checked)}
          label={t(`cookies.categories.${category}.title`)}
          description={t(`cookies.categories.${category}.description`)}
        />
      ))}
      <Group>
        <Button onClick={save} loading={saving}>
          {t('cookies.page.save')}
        </Button>
        <Button variant="default" onClick={() => openCookiePreferences().catch(unavailable)}>
          {t('cookies.page.manage')}
        </Button>
      </Group>
    </Stack>
  );
}
