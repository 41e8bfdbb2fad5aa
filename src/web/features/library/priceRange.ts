import { DEFAULT_PRICE_RANGE, MAX_PRICE } from '@shared/marketplaceConstants';

/** The price filter moves in whole units; its two handles stay at least this far apart. */
export const PRICE_STEP = 1;
const STEP = PRICE_STEP;

/** Slider bounds: the listing prices found (whole units), else 0 to 1000; never narrower than one step. */
export function sliderBounds(
  priceBounds: { min: number; max: number } | undefined,
): [number, number] {
  if (!priceBounds || !(priceBounds.max > 0)) return [...DEFAULT_PRICE_RANGE];
  const min = Math.max(0, Math.floor(priceBounds.min));
  const max = Math.ceil(priceBounds.max);
  return [min, Math.max(max, min + STEP)];
}

/**
 * The range after a typed value: whole units within 0..MAX_PRICE (beyond the slider's span is
 * fine), the other handle pushed so the two stay one step apart.
 */
export function typedRange(value: [number, number], index: 0 | 1, typed: number): [number, number] {
  const next: [number, number] = [...value];
  next[index] = Math.min(Math.max(Math.round(typed), 0), MAX_PRICE);
  if (next[1] - next[0] >= STEP) return next;
  if (index === 0) next[1] = Math.min(MAX_PRICE, next[0] + STEP);
  else next[0] = Math.max(0, next[1] - STEP);
  // Pinned at 0 or at the maximum: the typed handle moves instead.
  if (next[1] - next[0] < STEP) {
    if (index === 0) next[0] = next[1] - STEP;
    else next[1] = next[0] + STEP;
  }
  return next;
}
