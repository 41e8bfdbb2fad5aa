import { Alert, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatMoney } from '@shared/money';
import { intlLocale } from '@shared/intlLocale';
import type { PaymentsOverview } from '@shared/schemas/payments';
import { useTranslation } from '@web/lib/reactI18n';
import { AsyncSection } from '../../components/AsyncSection';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useDashboard, useOnboarding, usePaymentsOverview } from './api';

/**
 * /profile/:userId/payments — a seller's payments (issue 36): whether in-app payment is on, the
 * set-up with Stripe (onboarding on Stripe's hosted page, then a link to their Express dashboard)
 * and their money: held for deals in
 * progress, sent to them, refunded to buyers.
 */
export default function PaymentsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('payments.page.title'));
  const overview = usePaymentsOverview();
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('payments.page.title')}
        </Title>
        {/* What the page offers, once it is known to be on here: off, it would promise what the
            site does not do. */}
        {overview.data?.enabled && <Text c="dimmed">{t('payments.page.subtitle')}</Text>}
      </div>
      <AsyncSection
        query={overview}
        errorTitle={t('payments.page.error')}
        isEmpty={() => false}
        empty={null}
      >
        {(data) =>
          data.enabled ? (
            <Payments data={data} />
          ) : (
            <Stack gap="xs" data-testid="payments-off">
              <Text>{t('payments.page.off')}</Text>
              <Text size="sm" c="dimmed">
                {t('payments.deal.safe')}
              </Text>
            </Stack>
          )
        }
      </AsyncSection>
    </Stack>
  );
}

function Payments({ data }: { data: PaymentsOverview }) {
  const { t, i18n } = useTranslation();
  const onboarding = useOnboarding();
  const dashboard = useDashboard();
  const state = data.account.state;
  const money = (cents: number, currency: string) =>
    formatMoney(cents / 100, currency, i18n.language);
  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            {t('payments.page.accountTitle')}
          </Title>
          <Text data-testid="payments-account-state">{t(`payments.page.state.${state}`)}</Text>
          {state !== 'ready' && (
            <>
              <Text size="sm" c="dimmed">
                {t('payments.page.setupHelp')}
              </Text>
              <Button
                loading={onboarding.isPending || onboarding.isSuccess}
                onClick={() => onboarding.mutate()}
              >
                {t(state === 'none' ? 'payments.page.setup' : 'payments.page.finish')}
              </Button>
            </>
          )}
          {data.account.detailsSubmitted && (
            <>
              <Text size="sm" c="dimmed">
                {t('payments.page.dashboardHelp')}
              </Text>
              <Button
                variant="default"
                loading={dashboard.isPending || dashboard.isSuccess}
                onClick={() => dashboard.mutate()}
              >
                {t('payments.page.dashboard')}
              </Button>
            </>
          )}
          {(onboarding.error ?? dashboard.error) && (
            <Alert color="red" role="alert" p="xs">
              {(onboarding.error ?? dashboard.error)!.message}
            </Alert>
          )}
          {data.fee && (
            <Text size="sm">
              {t('payments.page.fee', {
                percent: data.fee.percent.toLocaleString(intlLocale(i18n.language), {
                  maximumFractionDigits: 2,
                }),
                fixed: money(data.fee.fixedCents, 'EUR'),
              })}
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('payments.page.moneyTitle')}
        </Title>
        {data.money.length === 0 ? (
          <Text c="dimmed">{t('payments.page.noMoney')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payments.page.held')}</Table.Th>
                  <Table.Th>{t('payments.page.released')}</Table.Th>
                  <Table.Th>{t('payments.page.refunded')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.money.map((m) => (
                  <Table.Tr key={m.currency} data-testid="payments-money">
                    <Table.Td>{money(m.heldCents, m.currency)}</Table.Td>
                    <Table.Td>{money(m.releasedCents, m.currency)}</Table.Td>
                    <Table.Td>{money(m.refundedCents, m.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
