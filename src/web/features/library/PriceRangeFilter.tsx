import { Group, NumberInput, RangeSlider, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { PRICE_STEP as STEP, typedRange } from './priceRange';

const COMMIT_DELAY_MS = 300;

/**
 * Price range: a two-handle slider whose handles stay at least one step apart, plus two number
 * fields for exact values. A change reaches `onCommit` after a short pause; the full range
 * commits as null (no price filter, so trade-only listings without a price still show).
 */
export function PriceRangeFilter({
  bounds,
  minPrice,
  maxPrice,
  currency,
  onCommit,
}: {
  bounds: [number, number];
  minPrice: number | null;
  maxPrice: number | null;
  currency: string;
  onCommit: (range: [number, number] | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lo = Math.min(bounds[0], minPrice ?? bounds[0]);
  const hi = Math.max(bounds[1], maxPrice ?? bounds[1]);
  const fromUrl: [number, number] = [minPrice ?? lo, maxPrice ?? hi];
  const [value, setValue] = useState<[number, number]>(fromUrl);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Follow the URL (back/forward, clear filters) and the bounds of new results.
  const [fromMin, fromMax] = fromUrl;
  useEffect(() => {
    setValue([fromMin, fromMax]);
  }, [fromMin, fromMax]);

  // Only the untouched full span means 'no price filter'; any other range is a filter.
  const commit = (next: [number, number]) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const [a, b] = next;
      onCommit(a === bounds[0] && b === bounds[1] ? null : [a, b]);
    }, COMMIT_DELAY_MS);
  };

  const money = (n: number) => formatMoney(n, currency, i18n.language, { whole: true });

  const setField = (index: 0 | 1, n: number) => {
    const next = typedRange(value, index, n);
    setValue(next);
    commit(next);
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500} id="price-range-label">
          {t('library.filters.price')}
        </Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          {money(value[0])} – {money(value[1])}
        </Text>
      </Group>
      <RangeSlider
        aria-labelledby="price-range-label"
        min={lo}
        max={hi}
        step={STEP}
        minRange={STEP}
        value={value}
        onChange={setValue}
        onChangeEnd={commit}
        label={money}
        thumbFromLabel={t('library.filters.minPrice')}
        thumbToLabel={t('library.filters.maxPrice')}
        mx={8}
      />
      <Group grow gap="xs" mt={4}>
        <PriceField
          label={t('library.filters.minPrice')}
          value={value[0]}
          onCommit={(n) => setField(0, n)}
        />
        <PriceField
          label={t('library.filters.maxPrice')}
          value={value[1]}
          onCommit={(n) => setField(1, n)}
        />
      </Group>
    </Stack>
  );
}

/** A number field that applies its value on Enter or when it loses focus, not on every key. */
function PriceField({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: number;
  onCommit: (n: number) => void;
}) {
  const [text, setText] = useState<number | string>(value);
  useEffect(() => setText(value), [value]);
  const apply = () => {
    const n = typeof text === 'number' ? text : Number.parseFloat(text);
    if (Number.isFinite(n) && n !== value) onCommit(n);
    else setText(value);
  };
  return (
    <NumberInput
      size="xs"
      label={label}
      min={0}
      step={STEP}
      allowNegative={false}
      allowDecimal={false}
      value={text}
      onChange={setText}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          apply();
        }
      }}
    />
  );
}
