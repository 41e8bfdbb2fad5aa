/**
 * npm run payments:reconcile
 *
 * Compares the payments ledger with Stripe's objects (docs/payments.md) on the configured
 * database, the one `npm start` uses, and prints what differs, one line each; exits 1 when
 * something does. Changes nothing. The embedded database is held by a running server: ask that
 * server instead (GET /api/admin/payments/reconciliation, as an admin).
 */
import 'dotenv/config';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { createPaymentsContext, reconcile } from '../src/server/modules/payments';
import type { Reconciliation } from '../src/shared/schemas/payments';

/** Warnings and errors to the terminal; the rest is quiet. */
const quiet = () => {};
const consoleLog = {
  level: 'warn',
  fatal: console.error,
  error: console.error,
  warn: console.warn,
  info: quiet,
  debug: quiet,
  trace: quiet,
  silent: quiet,
  child: () => consoleLog,
} as unknown as FastifyBaseLogger;

export function report({ checked, differences }: Reconciliation): string {
  const lines = differences.map((d) =>
    [
      d.dealId ? `deal ${d.dealId}` : 'no deal',
      d.kind,
      d.stripeId ?? '-',
      `ledger ${d.ledgerCents ?? '-'}`,
      `stripe ${d.stripeCents ?? '-'}`,
      d.problem,
    ].join(' | '),
  );
  return [`${checked} ledger rows checked, ${differences.length} differences`, ...lines].join('\n');
}

export async function main(env = process.env): Promise<{ ok: boolean; output: string }> {
  const config = loadConfig(env);
  if (!config.payments)
    return { ok: false, output: 'Payments are off: STRIPE_SECRET_KEY is not set.' };
  const database = await openDatabase({ ...config, databasePoolSize: 2 });
  try {
    await migrate(database);
    const ctx = createPaymentsContext({
      config,
      database,
      log: consoleLog,
      now: () => new Date(),
    });
    const result = await reconcile(ctx);
    return { ok: result.differences.length === 0, output: report(result) };
  } finally {
    await database.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await main().catch((err: Error) => ({ ok: false, output: err.message }));
  (result.ok ? console.log : console.error)(result.output);
  process.exit(result.ok ? 0 : 1);
}
