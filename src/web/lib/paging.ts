/** The `page` of a URL's search parameters: 1 when absent, not a number or below 1. */
export function pageFromParams(params: URLSearchParams): number {
  return Math.max(1, Number(params.get('page')) || 1);
}

/** How many pages `total` items fill, `pageSize` a page: at least one (an empty list has one). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
