/**
 * A price band of the facets ([min, max) in whole units, max null: open) as the library's price
 * filter, whose bounds are inclusive and keep listings without a price unless the minimum is
 * above 0: the first band starts at a cent, so it counts what its facet counts (priced listings).
 */
export function bandRange(band: { min: number; max: number | null }): [number, number | null] {
  const low = band.min === 0 ? 0.01 : band.min;
  const high = band.max === null ? null : Math.round((band.max - 0.01) * 100) / 100;
  return [low, high];
}

/**
 * A count of an answer whose counting stopped at SEARCH_COUNT_CAP matches is what those matches
 * held, a lower bound: it reads "12+" (a count of 0 may still be right, and says so plainly).
 */
export const isCapped = (count: number, capped: boolean | undefined) =>
  Boolean(capped) && count > 0;
