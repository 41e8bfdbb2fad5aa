import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/client';
import { startFakeStripe } from '../src/server/test/stripe/fake-stripe';
import { main } from './payments-reconcile';

const dir = mkdtempSync(join(tmpdir(), 'scaffale-reconcile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('prints what differs between the ledger and Stripe, and fails then', async () => {
  const fake = await startFakeStripe({ secretKey: 'sk_test_cli' });
  try {
    const env = {
      DATA_DIR: dir,
      AUTH_SECRET: 'x'.repeat(32),
      STRIPE_SECRET_KEY: 'sk_test_cli',
      STRIPE_WEBHOOK_SECRET: 'whsec_cli',
      STRIPE_API_URL: fake.url,
    };
    expect(await main(env)).toEqual({
      ok: true,
      output: '0 ledger rows checked, 0 differences',
    });
    const database = await openDatabase({ dataDir: dir });
    await database.query(
      `insert into payment_ledger (deal_id, kind, amount_cents, currency, stripe_id)
       values ('00000000-0000-4000-8000-000000000001', 'transfer', 900, 'EUR', 'tr_gone')`,
    );
    await database.close();
    const result = await main(env);
    expect(result.ok).toBe(false);
    expect(result.output).toBe(
      '1 ledger rows checked, 1 differences\n' +
        'deal 00000000-0000-4000-8000-000000000001 | transfer | tr_gone | ledger 900 | stripe - | not found in Stripe',
    );
    expect(await main({ DATA_DIR: dir, AUTH_SECRET: 'x'.repeat(32) })).toEqual({
      ok: false,
      output: 'Payments are off: STRIPE_SECRET_KEY is not set.',
    });
  } finally {
    await fake.close();
  }
}, 120_000);
