import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { PageLoader } from './PageLoader';
import type { ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ErrorAlert } from './ErrorAlert';

/** What AsyncSection reads of a query (TanStack Query's result fits). */
export interface Loadable<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: T | undefined;
  refetch: () => unknown;
}

/**
 * The states of a loaded list, the same way on every page: a spinner while it loads, an alert
 * with a retry button when it fails, `empty` when there is nothing, else `children(data)`.
 */
export function AsyncSection<T>({
  query,
  loadingLabel,
  errorTitle,
  showErrorMessage = false,
  retryLabel,
  isEmpty,
  empty,
  children,
}: {
  query: Loadable<T>;
  /** Defaults to the common "Loading...". */
  loadingLabel?: string;
  errorTitle: string;
  /** Shows the server's message under the title. */
  showErrorMessage?: boolean;
  /** Defaults to the common "Try again". */
  retryLabel?: string;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { data } = query;
  return (
    <>
      {query.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label={loadingLabel ?? t('common.loading')} />
        </Center>
      )}
      {query.isError && (
        <ErrorAlert title={errorTitle}>
          {showErrorMessage && <Text size="sm">{query.error?.message}</Text>}
          <Button
            mt={showErrorMessage ? 'xs' : undefined}
            size="xs"
            variant="default"
            onClick={() => void query.refetch()}
          >
            {retryLabel ?? t('common.tryAgain')}
          </Button>
        </ErrorAlert>
      )}
      {data !== undefined && (isEmpty(data) ? empty : children(data))}
    </>
  );
}

/** Nothing to show yet: an icon, a heading, a line of explanation and, if any, what to do. */
export function EmptyState({
  icon,
  title,
  text,
  order = 2,
  py = 'lg',
  children,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  /** The heading's level in the page. */
  order?: 2 | 3;
  py?: 'lg' | 'xl';
  children?: ReactNode;
}) {
  return (
    <Stack align="center" py={py} gap="xs" ta="center">
      {icon}
      <Title order={order} fz="lg">
        {title}
      </Title>
      <Text c="dimmed" maw={560}>
        {text}
      </Text>
      {children}
    </Stack>
  );
}

/**
 * Only the first two states of AsyncSection, for a page that draws its data itself: a spinner
 * while the query loads, the alert with a retry button when it fails.
 */
export function QueryStatus({
  query,
  errorTitle,
  retryLabel,
}: {
  query: Pick<Loadable<unknown>, 'isPending' | 'isError' | 'refetch'>;
  errorTitle: string;
  /** Defaults to the common "Try again". */
  retryLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {query.isPending && <PageLoader />}
      {query.isError && (
        <ErrorAlert title={errorTitle}>
          <Button mt="xs" size="xs" variant="default" onClick={() => void query.refetch()}>
            {retryLabel ?? t('common.tryAgain')}
          </Button>
        </ErrorAlert>
      )}
    </>
  );
}
