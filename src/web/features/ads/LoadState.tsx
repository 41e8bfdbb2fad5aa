import { Alert, Button, Group } from '@mantine/core';
import { PageLoader } from '../../components/PageLoader';
import { useTranslation } from '@web/lib/reactI18n';

/**
 * The advertiser's pages while a query loads (a spinner) or after it failed (the message, with
 * "Try again" on the same line); nothing once it has data.
 */
export function LoadState({
  query,
  errorMessage,
}: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  /** The failure's text (read only when the query failed). */
  errorMessage: () => string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {query.isPending && <PageLoader />}
      {query.isError && (
        <Alert
          color="red"
          role="alert"
          styles={{ message: { color: 'var(--mantine-color-error)' } }}
        >
          <Group justify="space-between">
            <span>{errorMessage()}</span>
            <Button size="xs" variant="default" onClick={() => void query.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Group>
        </Alert>
      )}
    </>
  );
}
