/** What every load worker prints (one JSON line on stdout) and the orchestrator reads. */
export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  /** Latencies in ms, sorted ascending, summarised. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** CPU ms per request: the worker itself, the server (API runs), PostgreSQL's connections. */
  cpu?: { self: number; server?: number; postgres?: number };
  /** Median ms per query of the mix (only the direct worker fills it). */
  perQuery?: Record<string, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summarise(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    errors,
    seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  };
}

/**
 * Open loop: starts `one` every 1/rate s from `started` (performance.now()) until `seconds` are
 * over, whatever the answers take; resolves once every one has finished.
 */
export async function atRate(
  rate: number,
  started: number,
  seconds: number,
  one: () => Promise<void>,
): Promise<void> {
  const interval = 1000 / rate;
  const deadline = started + seconds * 1000;
  const inFlight: Promise<void>[] = [];
  for (let k = 0; started + k * interval < deadline; k++) {
    const wait = started + k * interval - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(one());
  }
  await Promise.all(inFlight);
}

/** How a worker is told what to do (passed as one JSON argument). */
export interface LoadPlan {
  /** Requests in flight at once (closed loop); ignored when `rate` is set. */
  concurrency: number;
  seconds: number;
  /** Open loop: start this many requests per second whatever the answers take. */
  rate?: number;
  /** PostgreSQL connections of the floor's pool (default: as many as in flight, 20 at a rate). */
  pool?: number;
  /** Index of the mix to start from, so consecutive runs do not all begin with the same query. */
  start?: number;
}
