// One process for the crash test (crash.two-process.test.ts), not a test itself: the payments
// module on DATABASE_URL and a Stripe client on STRIPE_API_URL moves one deal's money
// (MOVE=release|refund) with a hook on Stripe's call. PAUSE=before: it stops once the movement is
// claimed, before Stripe is asked; PAUSE=after: once Stripe made it, before its answer reaches the
// ledger. It prints {"paused": "<stripe id or null>"} and waits there for the kill -9.
import Fastify from 'fastify';
import type { Config, PaymentsConfig } from '../../config';
import { openPostgres } from '../../db/client';
import { createPaymentsContext } from './service';
import { refund, release } from './settle';

const {
  DATABASE_URL: url,
  PAYMENTS: settings,
  DEAL_ID: dealId,
  PAUSE: pause,
  MOVE: move,
} = process.env;
if (!url || !settings || !dealId)
  throw new Error('DATABASE_URL, PAYMENTS and DEAL_ID are required');

const database = openPostgres(url, 2);
const ctx = createPaymentsContext({
  config: {
    payments: JSON.parse(settings) as PaymentsConfig,
    publicUrl: 'http://localhost:3000',
  } as Config,
  database,
  log: Fastify({ logger: false }).log,
  now: () => new Date(),
});
const stopHere = (id: string | null) => {
  process.stdout.write(`${JSON.stringify({ paused: id })}\n`);
  return new Promise<never>(() => {});
};
// The hook: Stripe's call of the movement, paused before or after it runs.
const resource = move === 'refund' ? ctx.stripe!.refunds : ctx.stripe!.transfers;
const create = resource.create.bind(resource) as (...args: unknown[]) => Promise<{ id: string }>;
(resource as { create: unknown }).create = async (...args: unknown[]) => {
  if (pause === 'before') return stopHere(null);
  const made = await create(...args);
  return stopHere(made.id);
};
await (move === 'refund' ? refund(ctx, dealId) : release(ctx, dealId));
process.stdout.write(`${JSON.stringify({ finished: true })}\n`);
process.exit(0);
