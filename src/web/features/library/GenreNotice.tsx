import { Anchor, Text } from '@mantine/core';
import type { Genre } from '@shared/marketplaceConstants';
import { Trans, useTranslation } from '@web/lib/reactI18n';

/**
 * Says that the search's genre words ("fantascienza") brought in the books of that genre, with a
 * way to keep only that genre (its filter).
 */
export function GenreNotice({
  genres,
  onOnly,
}: {
  genres: Genre[];
  onOnly: (genre: Genre) => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="status" data-testid="genre-notice">
      {genres.map((genre) => (
        <Text key={genre} size="sm">
          <Trans
            t={t}
            i18nKey="library.genreWords.including"
            components={{ genre: <strong>{t(`genres.${genre}`)}</strong> }}
          />{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => onOnly(genre)}>
            {t('library.genreWords.only', { genre: t(`genres.${genre}`) })}
          </Anchor>
        </Text>
      ))}
    </div>
  );
}
