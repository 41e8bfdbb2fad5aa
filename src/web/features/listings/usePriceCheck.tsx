import { useState, type ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney, priceNeedsConfirmation } from '@shared/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';

/**
 * Asks before publishing a price far above what a second-hand book costs (a slip of the keyboard,
 * "650" for "6,50"): `check(price, currency, publish)` publishes at once, or after "Yes, the price
 * is right". `dialog` goes in the form.
 */
export function usePriceCheck(): {
  check: (price: number | null | undefined, currency: string, publish: () => Promise<void>) => void;
  dialog: ReactNode;
} {
  const { t, i18n } = useTranslation();
  const [pending, setPending] = useState<{ price: string; publish: () => Promise<void> } | null>(
    null,
  );
  const check = (
    price: number | null | undefined,
    currency: string,
    publish: () => Promise<void>,
  ) => {
    if (!priceNeedsConfirmation(price)) return void publish();
    setPending({ price: formatMoney(price, currency, i18n.language), publish });
  };
  const dialog = (
    <ConfirmDialog
      opened={pending !== null}
      onClose={() => setPending(null)}
      title={t('sell.priceCheck.title', { price: pending?.price ?? '' })}
      confirmLabel={t('sell.priceCheck.confirm')}
      cancelLabel={t('sell.priceCheck.change')}
      color="blue"
      centered
      onConfirm={() => {
        const publish = pending?.publish;
        setPending(null);
        void publish?.();
      }}
    >
      {t('sell.priceCheck.body')}
    </ConfirmDialog>
  );
  return { check, dialog };
}
