/**
 * Load generator for GET /api/listings, run by library.ts in a process of its own (never inside
 * the server it measures): autocannon with keep-alive connections, cycling through the query mix.
 *
 *   tsx scripts/bench/lib/http-load.ts <port> '<LoadPlan as JSON>'
 *
 * Prints one JSON line (LoadResult). Latencies are taken from autocannon's per-response timings
 * (sub-millisecond; its own histogram keeps whole milliseconds only).
 */
import autocannon from 'autocannon';
import { apiPath, queryMix } from './mix';
import { summarise, type LoadPlan } from './stats';

const [port, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson) as LoadPlan;
const mix = queryMix();
let next = plan.start ?? 0;
const latencies: number[] = [];
let errors = 0;

const started = performance.now();
const selfCpu = process.cpuUsage();
const instance = autocannon(
  {
    url: `http://127.0.0.1:${port}`,
    connections: plan.rate ? Math.max(plan.concurrency, 20) : plan.concurrency,
    duration: plan.seconds,
    ...(plan.rate ? { overallRate: plan.rate } : {}),
    requests: [{ setupRequest: (req) => ({ ...req, path: apiPath(mix[next++ % mix.length]) }) }],
  },
  (err) => {
    if (err) throw err;
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(selfCpu);
    const cpu = { self: (used.user + used.system) / 1000 / latencies.length };
    process.stdout.write(`${JSON.stringify({ ...summarise(latencies, errors, seconds), cpu })}\n`);
  },
);
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode === 200) latencies.push(responseTime);
  else errors++;
});
instance.on('reqError', () => errors++);
