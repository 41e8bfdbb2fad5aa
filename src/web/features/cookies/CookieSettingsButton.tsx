import { Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '@web/lib/reactI18n';
import { openCookiePreferences } from './api';

/** "Cookie settings": reopens the preferences at any time (footer). */
export function CookieSettingsButton() {
  const { t } = useTranslation();
  const open = () =>
    openCookiePreferences().catch(() =>
      notifications.show({ color: 'red', message: t('cookies.unavailable') }),
    );
  return (
    <Anchor component="button" type="button" onClick={open} c="dark" fz="sm" ta="left">
      {t('footer.cookieSettings')}
    </Anchor>
  );
}
