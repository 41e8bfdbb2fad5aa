import { NativeSelect } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { LANGUAGES } from '@shared/constants';

export function LanguageSwitcher({ fullWidth = false }: { fullWidth?: boolean }) {
  const { t, i18n } = useTranslation();
  const value = (i18n.resolvedLanguage ?? 'it').startsWith('en') ? 'en' : 'it';
  return (
    <NativeSelect
      aria-label={t('nav.language')}
      label={fullWidth ? t('nav.language') : undefined}
      size="xs"
      w={fullWidth ? '100%' : 110}
      value={value}
      data={LANGUAGES.map((l) => ({ value: l, label: t(`nav.languages.${l}`) }))}
      onChange={(e) => void i18n.changeLanguage(e.currentTarget.value)}
    />
  );
}
