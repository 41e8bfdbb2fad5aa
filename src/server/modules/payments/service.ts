import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { PaymentsContext } from './queries';
import { createStripeClient } from './stripe';
import { createReceipts } from './receipts';
import type { Mailer } from '../../platform/mail';

/**
 * The payments module's context on the app's dependencies: the Stripe client when payments are on
 * (STRIPE_SECRET_KEY), null otherwise.
 */
export function createPaymentsContext(deps: {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  now: () => Date;
  /** The receipts by e-mail (absent: none). */
  mailer?: Mailer;
  /** The conversations' live messages (absent: the line is stored, not pushed). */
  chat?: { publishMessage(roomId: string, messageId: string): Promise<unknown> };
}): PaymentsContext {
  const settings = deps.config.payments;
  const query: PaymentsContext['query'] = (text, params) => deps.database.query(text, params);
  return {
    tell: createReceipts({
      query,
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
      publish: deps.chat?.publishMessage,
    }),
    settings,
    stripe: settings ? createStripeClient(settings) : null,
    database: deps.database,
    query,
    publicUrl: deps.config.publicUrl,
    log: deps.log,
    now: deps.now,
  };
}
