import { NativeSelect } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { LANGUAGES, isLanguage } from '@shared/constants';
import { useSession } from '../lib/session';
import { notify } from '../lib/notify';
import { savePreferredLanguage } from '../features/accounts';

/**
 * The header's language choice. For a signed-in member it is also their preferred language
 * (PATCH /api/me), so e-mails and the next visit speak it too (issue 33).
 */
export function LanguageSwitcher({ fullWidth = false }: { fullWidth?: boolean }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const value = (i18n.resolvedLanguage ?? 'it').startsWith('en') ? 'en' : 'it';
  const choose = async (language: string) => {
    await i18n.changeLanguage(language);
    if (session.status !== 'signed-in' || !isLanguage(language)) return;
    try {
      session.applyUser(await savePreferredLanguage(language));
    } catch (err) {
      notify('red', err instanceof Error ? err.message : i18n.t('errors.general'));
    }
  };
  return (
    <NativeSelect
      aria-label={t('nav.language')}
      label={fullWidth ? t('nav.language') : undefined}
      size="xs"
      w={fullWidth ? '100%' : 110}
      value={value}
      data={LANGUAGES.map((l) => ({ value: l, label: t(`nav.languages.${l}`) }))}
      onChange={(e) => void choose(e.currentTarget.value)}
    />
  );
}
