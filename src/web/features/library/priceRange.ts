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
 * The member's price choice: each bound a whole number, or null where the member set none (the
 * fields then show the results' bound as a placeholder, and nothing is sent for it).
 */
export type PriceChoice = [number | null, number | null];

/**
 * The choice after a value typed into one field (null: emptied): whole units within
 * 0..MAX_PRICE (beyond the slider's span is fine). A bound the member set on the other side is
 * pushed so the two stay one step apart; one not set stays unset, whatever the results' bounds.
 */
export function typedRange(value: PriceChoice, index: 0 | 1, typed: number | null): PriceChoice {
  const next: PriceChoice = [...value];
  if (typed === null) {
    next[index] = null;
    return next;
  }
  const own = Math.min(Math.max(Math.round(typed), 0), MAX_PRICE);
  next[index] = own;
  const other = next[1 - index];
  if (other === null) return next;
  const [lo, hi] = index === 0 ? [own, other] : [other, own];
  if (hi - lo >= STEP) return next;
  if (index === 0) next[1] = Math.min(MAX_PRICE, own + STEP);
  else next[0] = Math.max(0, own - STEP);
  // Pinned at 0 or at the maximum: the typed bound moves instead.
  const [a, b] = next as [number, number];
  if (b - a < STEP) {
    if (index === 0) next[0] = b - STEP;
    else next[1] = a + STEP;
  }
  return next;
}

/**
 * The choice after the slider's handles were let go at `moved`, while they showed `shown`: only
 * a handle the member moved changes the choice; moved to its end of the results' span (`ends`),
 * it sets no bound (the whole span is no filter).
 */
export function slidRange(
  value: PriceChoice,
  shown: [number, number],
  moved: [number, number],
  ends: [number, number],
): PriceChoice {
  const next: PriceChoice = [...value];
  for (const i of [0, 1] as const)
    if (moved[i] !== shown[i]) next[i] = moved[i] === ends[i] ? null : moved[i];
  return next;
}

/** The URL's filters for a choice: a bound not set leaves the URL (and the request). */
export const priceParams = ([min, max]: PriceChoice) => ({
  minPrice: min === null ? null : String(min),
  maxPrice: max === null ? null : String(max),
});
