import {
  Alert,
  Anchor,
  Button,
  CloseButton,
  Group,
  Paper,
  Radio,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { BUNDLE_MAX_LISTINGS, BUNDLE_MIN_LISTINGS } from '@shared/schemas/bundles';
import { formatDate } from '@shared/format';
import { useSession } from '../../../lib/session';
import { useSellerAwayUntil } from '../../watching';
import { MoneyInput } from '../../../components/MoneyInput';
import { useBundleOffer, useBundleQuote } from './api';
import { useBundle } from './store';
import { BundleBar, bundlePanelClass } from './BundleBar';

/**
 * The bundle being built with one seller: its books, the seller's shipping rule, the total, and
 * "Make an offer for the bundle" (one offer for all, sent to the conversation with the seller).
 */
export function BundlePanel({ sellerId }: { sellerId: string }) {
  const session = useSession();
  const bundle = useBundle(sellerId);
  if (session.status !== 'signed-in' || session.user.id === sellerId) return null;
  if (bundle.items.length === 0) return null;
  return <BundleForm sellerId={sellerId} meId={session.user.id} />;
}

function BundleForm({ sellerId, meId }: { sellerId: string; meId: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const headingId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const bundle = useBundle(sellerId);
  const quote = useBundleQuote(bundle.ids);
  const offer = useBundleOffer();
  const [amount, setAmount] = useState<string | number>('');
  const [delivery, setDelivery] = useState<'post' | 'hand' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const q = quote.data;
  const money = (n: number | null) => (q ? formatMoney(n, q.currency, i18n.language) : '');
  const ships = q?.shipping !== null && q?.shipping !== undefined;
  const method = delivery ?? (ships ? 'post' : 'hand');
  const value = amount === '' ? Number.NaN : Number(amount);
  const unavailable = q?.listings.filter((l) => !l.available) ?? [];
  const enough = bundle.items.length >= BUNDLE_MIN_LISTINGS;
  // A seller on holiday takes no offers (decision 0087): the notice instead of the offer form.
  const awayUntil = useSellerAwayUntil(sellerId);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!Number.isFinite(value) || value <= 0) return setError(t('deals.bundle.amountInvalid'));
    setError(null);
    offer.mutate(
      { listingIds: bundle.ids, amount: Math.round(value * 100) / 100, delivery: method },
      {
        onSuccess: ({ roomId }) => {
          bundle.clear();
          navigate(`/profile/${encodeURIComponent(meId)}/chats?room=${encodeURIComponent(roomId)}`);
        },
      },
    );
  };

  // The books that keep the bundle from going by post, named (issue 33 item 7).
  const handOnly = q
    ? new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
        q.handOnly.map((title) => t('deals.quoted', { title })),
      )
    : '';
  const total =
    Number.isFinite(value) && value > 0
      ? value + (method === 'post' && ships ? (q?.shipping ?? 0) : 0)
      : null;
  return (
    <>
      <Paper
        withBorder
        p="md"
        component="section"
        aria-labelledby={headingId}
        data-testid="bundle-panel"
        ref={panelRef}
        className={bundlePanelClass}
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {/* The button goes under a long heading on a phone rather than losing its words. */}
            <Group gap="xs" justify="space-between" wrap="wrap">
              <Group gap="xs" wrap="nowrap" miw={0}>
                <IconPackage size={20} aria-hidden style={{ flexShrink: 0 }} />
                <Title order={2} fz="lg" id={headingId} ref={headingRef} tabIndex={-1}>
                  {q
                    ? t('deals.bundle.heading', { name: q.seller.displayName })
                    : t('deals.bundle.title')}
                </Title>
              </Group>
              <Button size="compact-sm" variant="subtle" onClick={bundle.clear}>
                {t('deals.bundle.clear')}
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              {t('deals.bundle.count', {
                count: bundle.items.length,
                max: BUNDLE_MAX_LISTINGS,
              })}
            </Text>
            <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {bundle.items.map((item) => {
                const known = q?.listings.find((l) => l.id === item.id);
                return (
                  <Group
                    key={item.id}
                    component="li"
                    gap="xs"
                    wrap="nowrap"
                    justify="space-between"
                  >
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      <Anchor component={Link} to={`/library/book/${item.id}`}>
                        {known?.title ?? item.title}
                      </Anchor>
                      {known && known.price !== null && ` · ${money(known.price)}`}
                      {known && !known.available && (
                        <Text component="span" c="red.9" size="xs">
                          {' '}
                          {t('deals.bundle.unavailable')}
                        </Text>
                      )}
                    </Text>
                    <CloseButton
                      size="sm"
                      aria-label={t('deals.bundle.removeNamed', {
                        title: known?.title ?? item.title,
                      })}
                      onClick={() => bundle.remove(item.id)}
                    />
                  </Group>
                );
              })}
            </Stack>
            {quote.isError && (
              <Alert color="red" role="alert" p="xs">
                {quote.error.message}
              </Alert>
            )}
            {q && (
              <>
                <Text size="sm">
                  {t('deals.bundle.booksTotal', { total: money(q.booksTotal) })}
                </Text>
                <Text size="sm" data-testid="bundle-rule">
                  {q.rule.shippingAmount === null
                    ? t('deals.bundle.ruleHighest')
                    : t('deals.bundle.ruleFixed', { price: money(q.rule.shippingAmount) })}
                </Text>
                <Radio.Group
                  label={t('deals.bundle.delivery')}
                  value={method}
                  onChange={(v) => setDelivery(v as 'post' | 'hand')}
                >
                  <Stack gap={4} mt={4}>
                    <Radio
                      value="post"
                      disabled={!ships}
                      label={
                        ships
                          ? t('deals.bundle.byPost', { shipping: money(q.shipping) })
                          : t('deals.bundle.byPostNo', {
                              titles: handOnly,
                              count: q.handOnly.length,
                            })
                      }
                    />
                    <Radio value="hand" label={t('deals.method.hand')} />
                  </Stack>
                </Radio.Group>
              </>
            )}
            {!enough && (
              <Text size="sm" c="dimmed">
                {t('deals.bundle.addMore', { min: BUNDLE_MIN_LISTINGS })}
              </Text>
            )}
            {enough && awayUntil && (
              <Alert color="yellow" p="xs" data-testid="bundle-away">
                {t('deals.bundle.away', { date: formatDate(awayUntil, i18n.language) })}
              </Alert>
            )}
            {enough && !awayUntil && (
              <>
                <MoneyInput
                  label={t('deals.bundle.amount', { currency: q?.currency ?? 'EUR' })}
                  value={amount}
                  onChange={setAmount}
                  error={error}
                />
                {total !== null && q && (
                  <Text size="sm" fw={600} data-testid="bundle-total">
                    {t('deals.bundle.total', { total: money(total) })}
                  </Text>
                )}
                {offer.isError && (
                  <Alert color="red" role="alert" p="xs">
                    {offer.error.message}
                  </Alert>
                )}
                <Button
                  type="submit"
                  loading={offer.isPending}
                  disabled={!q || unavailable.length > 0}
                  w="fit-content"
                >
                  {t('deals.bundle.send')}
                </Button>
              </>
            )}
          </Stack>
        </form>
      </Paper>
      <BundleBar
        panel={panelRef}
        heading={headingRef}
        name={q?.seller.displayName ?? null}
        count={bundle.items.length}
        total={q ? money(q.booksTotal) : null}
      />
    </>
  );
}
