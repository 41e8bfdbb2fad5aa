/**
 * npm run seed:demo — fills the configured database (the embedded one under DATA_DIR, or
 * DATABASE_URL) with believable demo content. Running it again changes nothing: every step skips
 * what already exists. Steps run in order; a feature appends its own to `seedSteps`.
 *
 * Demo members sign in with their e-mail or username and the password 'scaffale-demo'.
 */
import 'dotenv/config';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../src/server/config';
import { DataDirInUseError, openDatabase, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { createAuth } from '../../src/server/platform/auth/instance';
import type { Mailer } from '../../src/server/platform/mail';
import type { SeedContext, SeedStep } from './types';
import { DEMO_PASSWORD, seedMembers } from './members';
import { seedListings } from './listings';
import { seedWorks } from './works';
import { seedConnections } from './connections';
import { seedChats } from './chats';
import { seedNotifications } from './notifications';
import { seedWishlists } from './wishlist';
import { seedWatching } from './watching';
import { seedBundles } from './bundles';
import { seedSavedSearches } from './saved-searches';
import { seedCommunity } from './community';
import { seedAds } from './ads';
import { seedReviews } from './reviews';
import { seedMeetings } from './meetings';
import { seedTrades } from './trades';
import { seedParcelInTransit } from './deals-post';

/** Every step, in order. Features append theirs (listings, friendships, posts...). */
export const seedSteps: SeedStep[] = [
  seedMembers,
  seedListings,
  seedWorks,
  seedConnections,
  seedChats,
  seedNotifications,
  seedWishlists,
  seedSavedSearches,
  seedCommunity,
  seedAds,
  seedReviews,
  seedWatching,
  seedMeetings,
  seedTrades,
  seedBundles,
  seedParcelInTransit,
];

/** Sign-up e-mails of demo members go nowhere: the addresses are not real. */
const discardMail: Mailer = {
  transport: 'outbox',
  async send() {},
  async list() {
    return [];
  },
  async close() {},
};

export async function runSeed(
  opts: { config?: Config; database?: Database; log?: (message: string) => void } = {},
): Promise<SeedContext> {
  const config = opts.config ?? loadConfig(process.env);
  const database = opts.database ?? (await openDatabase(config));
  if (!opts.database) await migrate(database);
  const ctx: SeedContext = {
    config,
    database,
    auth: createAuth({ config, database, mailer: discardMail }),
    members: [],
    log: opts.log ?? ((message) => console.log(`seed: ${message}`)),
  };
  try {
    for (const step of seedSteps) await step(ctx);
  } finally {
    if (!opts.database) await database.close();
  }
  return ctx;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runSeed()
    .then(() => console.log(`seed: done (password for every demo member: ${DEMO_PASSWORD})`))
    .catch((err) => {
      // A running server holds the embedded database: its message says what to do, no trace.
      console.error(err instanceof DataDirInUseError ? err.message : err);
      process.exit(1);
    });
}
