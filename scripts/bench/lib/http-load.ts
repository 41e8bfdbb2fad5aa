/**
 * Load generator for GET /api/listings, run by library.ts in a process of its own (never inside
 * the server it measures), cycling through the query mix (lib/library-mix.ts).
 *
 *   tsx scripts/bench/lib/http-load.ts <port> '<LoadPlan as JSON>'
 *
 * In flight (closed loop): autocannon with keep-alive connections; latencies from its
 * per-response timings (sub-millisecond; its own histogram keeps whole milliseconds only).
 * At a rate (open loop): a request started every 1/rate s on keep-alive sockets, timed from its
 * start, as direct-load.ts does for the floor. (autocannon's own rate lets each connection send
 * its share of a second back to back as the second begins: bursts, not a steady rate.)
 *
 * Prints one JSON line (LoadResult).
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { apiPath } from './mix';
import { libraryMix } from './library-mix';
import { atRate, summarise, type LoadPlan } from './stats';

const [port, planJson] = process.argv.slice(2);
const plan = JSON.parse(planJson) as LoadPlan;
const mix = libraryMix();
let next = plan.start ?? 0;
const latencies: number[] = [];
let errors = 0;
/** Answers other than 200, by status (0: no answer), so a run with errors says which. */
const failed: Record<string, number> = {};
const fail = (status = 0) => {
  errors++;
  failed[status] = (failed[status] ?? 0) + 1;
};

const started = performance.now();
const selfCpu = process.cpuUsage();
function report() {
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(selfCpu);
  const cpu = { self: (used.user + used.system) / 1000 / latencies.length };
  if (errors) process.stderr.write(`http-load: answers other than 200 ${JSON.stringify(failed)}\n`);
  process.stdout.write(`${JSON.stringify({ ...summarise(latencies, errors, seconds), cpu })}\n`);
}

if (plan.rate) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const path = apiPath(mix[next++ % mix.length]);
      const req = http.get({ host: '127.0.0.1', port: Number(port), path, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t0);
          else fail(res.statusCode);
          resolve();
        });
      });
      req.on('error', () => {
        fail();
        resolve();
      });
    });
  await atRate(plan.rate, started, plan.seconds, one);
  agent.destroy();
  report();
} else {
  autocannon(
    {
      url: `http://127.0.0.1:${port}`,
      connections: plan.concurrency,
      duration: plan.seconds,
      requests: [{ setupRequest: (req) => ({ ...req, path: apiPath(mix[next++ % mix.length]) }) }],
    },
    (err) => {
      if (err) throw err;
      report();
    },
  ).on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === 200) latencies.push(responseTime);
    else fail(statusCode);
  });
}
