import { Group, NumberInput, RangeSlider, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { PRICE_STEP as STEP, slidRange, typedRange, type PriceChoice } from './priceRange';

const COMMIT_DELAY_MS = 300;

/**
 * Price range: a two-handle slider whose handles stay at least one step apart, plus two number
 * fields for exact values. A bound the member did not set is never sent (issue 25: the minimum
 * once kept the previous search's lowest price): its field stays empty with the results' bound
 * as a placeholder, its handle sits at the end of the span and follows new results. A change
 * reaches `onCommit` after a short pause, as [min, max] with null for a bound not set.
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
  onCommit: (range: PriceChoice) => void;
}) {
  const { t, i18n } = useTranslation();
  const [value, setValue] = useState<PriceChoice>([minPrice, maxPrice]);
  // The handles while dragged (null: at the choice).
  const [dragged, setDragged] = useState<[number, number] | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Follow the URL (back/forward, clear filters, a price band).
  useEffect(() => {
    setValue([minPrice, maxPrice]);
  }, [minPrice, maxPrice]);

  // The span of the slider: the results' bounds, widened to what the member set.
  const lo = Math.max(0, Math.min(bounds[0], value[0] ?? bounds[0], (value[1] ?? Infinity) - STEP));
  const hi = Math.max(bounds[1], value[1] ?? bounds[1], (value[0] ?? -Infinity) + STEP);
  const shown: [number, number] = [value[0] ?? lo, value[1] ?? hi];

  const commit = (next: PriceChoice) => {
    setValue(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onCommit(next), COMMIT_DELAY_MS);
  };

  const money = (n: number) => formatMoney(n, currency, i18n.language, { whole: true });
  const [from, to] = dragged ?? shown;

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500} id="price-range-label">
          {t('library.filters.price')}
        </Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          {money(from)} – {money(to)}
        </Text>
      </Group>
      <RangeSlider
        aria-labelledby="price-range-label"
        min={lo}
        max={hi}
        step={STEP}
        minRange={STEP}
        value={[from, to]}
        onChange={setDragged}
        onChangeEnd={(moved) => {
          setDragged(null);
          commit(slidRange(value, shown, moved, [lo, hi]));
        }}
        label={money}
        thumbFromLabel={t('library.filters.minPrice')}
        thumbToLabel={t('library.filters.maxPrice')}
        mx={8}
      />
      <Group grow gap="xs" mt={4}>
        <PriceField
          label={t('library.filters.minPrice')}
          value={value[0]}
          placeholder={lo}
          onCommit={(n) => commit(typedRange(value, 0, n))}
        />
        <PriceField
          label={t('library.filters.maxPrice')}
          value={value[1]}
          placeholder={hi}
          onCommit={(n) => commit(typedRange(value, 1, n))}
        />
      </Group>
    </Stack>
  );
}

/**
 * A number field that applies its value on Enter or when it loses focus, not on every key.
 * Empty means no bound: the placeholder shows the results' bound instead.
 */
function PriceField({
  label,
  value,
  placeholder,
  onCommit,
}: {
  label: string;
  value: number | null;
  placeholder: number;
  onCommit: (n: number | null) => void;
}) {
  const [text, setText] = useState<number | string>(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const apply = () => {
    const n = typeof text === 'number' ? text : Number.parseFloat(text);
    if (String(text).trim() === '') {
      if (value !== null) onCommit(null);
    } else if (Number.isFinite(n) && n !== value) onCommit(n);
    else setText(value ?? '');
  };
  return (
    <NumberInput
      size="xs"
      label={label}
      placeholder={String(placeholder)}
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
