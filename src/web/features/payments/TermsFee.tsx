import { Text } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { usePaymentsFee } from './api';
import { feeRate } from './feeRate';

/** The terms page's buyer-protection section: the fee on this site, or that payments are off. */
export function TermsFee() {
  const { t, i18n } = useTranslation();
  const answer = usePaymentsFee();
  if (!answer.data) return null;
  const { fee, payWithinHours } = answer.data;
  if (!answer.data.enabled || !fee)
    return <Text data-testid="terms-fee">{t('legal.terms.fee.off')}</Text>;
  return (
    <Text data-testid="terms-fee">
      {t('legal.terms.fee.current', {
        ...feeRate(fee, 'EUR', i18n.language),
        hours: payWithinHours ?? 48,
      })}
    </Text>
  );
}
