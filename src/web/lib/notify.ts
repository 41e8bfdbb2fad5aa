import { notifications } from '@mantine/notifications';
import i18n from './i18n';

/** A notification whose close button has a name (Mantine's has none by default: axe button-name). */
export function notify(color: 'green' | 'red' | 'orange', message: string, title?: string) {
  notifications.show({
    color,
    title,
    message,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
  });
}
