import { Center } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import classes from './PageLoader.module.css';

/**
 * Mantine's default Loader (the oval, size md, primary colour), the same single span with the same
 * static class name (app/Layout.module.css keys on it), without Mantine's Loader, whose bars and
 * dots variants and styles machinery the shell's two loaders do not need.
 */
export function Spinner({ label }: { label: string }) {
  return (
    <span role="status" className={`mantine-Loader-root ${classes.spinner}`} aria-label={label} />
  );
}

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl" mih={200}>
      <Spinner label={t('common.loading')} />
    </Center>
  );
}
