import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import type { Genre } from '@shared/marketplaceConstants';
import { useTranslation } from '@web/lib/reactI18n';

/**
 * A genre picker: first `empty` (no genre chosen, or every genre), then `genres` in the reader's
 * language. The form or filter passes its label, value and the rest.
 */
export function GenreSelect({
  genres,
  empty,
  ...props
}: Omit<NativeSelectProps, 'data'> & { genres: readonly Genre[]; empty: string }) {
  const { t } = useTranslation();
  const data = [
    { value: '', label: empty },
    ...genres.map((g) => ({ value: g, label: t(`genres.${g}`) })),
  ];
  return <NativeSelect data={data} {...props} />;
}
