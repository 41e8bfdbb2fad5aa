import { Center, Pagination, type MantineSpacing } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';

/**
 * Numbered pages for a paged list, centred, every control named for screen readers ("Pagina 3",
 * "Pagina successiva"…); nothing when everything fits on one page. `Pager` is the compact
 * previous/next variant.
 */
export function PageNumbers({
  pages,
  page,
  onChange,
  siblings,
  mt,
  label,
}: {
  pages: number;
  page: number;
  onChange: (page: number) => void;
  siblings?: number;
  mt?: MantineSpacing;
  /** The navigation's own name, when the page has more than one list. */
  label?: string;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Center mt={mt}>
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        siblings={siblings}
        getControlProps={(control) => ({ 'aria-label': t(`library.pagination.${control}`) })}
        getItemProps={(p) => ({ 'aria-label': t('library.pagination.page', { page: p }) })}
        aria-label={label}
      />
    </Center>
  );
}
