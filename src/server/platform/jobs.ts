import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from './module';

/**
 * A background job of a module (decision 0069, shared by decision 0074): run once when the app is
 * ready and then every `everyMs` (every second with the e2e test clock), in every process, on the
 * app's clock. Running "once across processes" is the job's own duty: its work must be claimed
 * row by row (one statement, or a row lock and a re-check) so that two processes never both do
 * it. Nothing runs when the app's background jobs are off (createTestApp), where tests call the
 * job's function with an injected clock.
 */
export interface Job {
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
}

/**
 * How often a timer of the app runs: every `everyMs`, or every second with the e2e test clock
 * (TEST_CLOCK), so a journey that passes a date sees the work done at once. The jobs below and
 * the e-mail digests (app.ts) both run on it.
 */
export const timerInterval = (config: ModuleDeps['config'], everyMs: number) =>
  config.testClock ? 1_000 : everyMs;

/** Each app's jobs by name (keyed by its HTTP server, shared by every plugin context). */
const registry = new WeakMap<object, Map<string, Job['run']>>();

/** Runs one of the app's jobs now, with `now` as its clock: for tests on an injected clock. */
export function runJob(app: FastifyInstance, name: string, now: Date): Promise<unknown> {
  const run = registry.get(app.server)?.get(name);
  if (!run) throw new Error(`no job named ${name}`);
  return run(now);
}

export function scheduleJob(
  app: FastifyInstance,
  deps: Pick<ModuleDeps, 'backgroundJobs' | 'config' | 'now'>,
  job: Job,
): void {
  const jobs = registry.get(app.server) ?? new Map<string, Job['run']>();
  registry.set(app.server, jobs);
  jobs.set(job.name, job.run);
  if (!deps.backgroundJobs) return;
  const every = timerInterval(deps.config, job.everyMs);
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    // One run at a time in a process: a slow run is not overlapped by the next tick.
    running = running.then(() =>
      job.run(deps.now()).catch((err: unknown) => app.log.warn({ err }, `${job.name} job failed`)),
    );
    return running;
  };
  const timer = setInterval(() => void run(), every);
  timer.unref();
  // The first run is over before the app says it is ready: a restart catches up at once.
  app.addHook('onReady', async () => {
    await run();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
