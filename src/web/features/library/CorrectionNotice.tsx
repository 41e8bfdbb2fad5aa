import { Anchor, Text } from '@mantine/core';
import { Trans, useTranslation } from '@web/lib/reactI18n';

/**
 * Says that the results are those of corrected words ("Results for *tolkien*"), with a way to
 * search the words as they were typed.
 */
export function CorrectionNotice({
  corrected,
  typed,
  onSearchTyped,
}: {
  corrected: string;
  typed: string;
  onSearchTyped: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="status" data-testid="correction-notice">
      <Text fz="lg">
        <Trans
          t={t}
          i18nKey="library.correction.resultsFor"
          components={{ words: <em>{corrected}</em> }}
        />
      </Text>
      <Text size="sm" c="dimmed">
        {t('library.correction.insteadLabel')}{' '}
        <Anchor component="button" type="button" size="sm" onClick={onSearchTyped}>
          {typed}
        </Anchor>
      </Text>
    </div>
  );
}
