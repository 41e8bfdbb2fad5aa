/**
 * npm run seed:demo — fills the configured database (the embedded one under DATA_DIR, or
 * DATABASE_URL) with believable demo content. Running it again changes nothing: every step skips
 * what already exists. Steps run in order; a feature appends its own to `seedSteps`.
 *
 * Demo members sign in with their e-mail or username and the password 'scaffale-demo'.
 */
import 'dotenv/config';
import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import { loadConfig, type Config } from '../src/server/config';
import { openDatabase, type Database } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { users } from '../src/server/db/schema';
import { createAuth, type Auth } from '../src/server/platform/auth/instance';
import type { Mailer } from '../src/server/platform/mail';
import { seedListings } from './seed-listings';
import { seedConnections } from './seed/connections';
import { seedChats } from './seed/chats';
import { seedNotifications } from './seed/notifications';
import { seedWishlists } from './seed/wishlist';
import { seedWatching } from './seed/watching';
import { seedBundles } from './seed/bundles';
import { seedSavedSearches } from './seed/saved-searches';
import { seedCommunity } from './seed/community';
import { seedAds } from './seed/ads';
import { seedReviews } from './seed/reviews';
import { seedMeetings } from './seed/meetings';
import { seedTrades } from './seed/trades';
import { seedParcelInTransit } from './seed/deals-post';

export const DEMO_PASSWORD = 'scaffale-demo';

export interface DemoMember {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  city: string;
  country: string;
  language: 'it' | 'en';
  bio: string;
  /** Days since the member joined, so the community looks lived-in. */
  joinedDaysAgo: number;
}

export const demoMembers: DemoMember[] = [
  {
    email: 'giulia.bianchi@example.org',
    username: 'giulia_legge',
    firstName: 'Giulia',
    lastName: 'Bianchi',
    city: 'Milano',
    country: 'Italia',
    language: 'it',
    bio: 'Divoro gialli e classici russi. Scambio volentieri, spedisco in tutta Italia.',
    joinedDaysAgo: 410,
  },
  {
    email: 'marco.rossi@example.org',
    username: 'marco_rossi',
    firstName: 'Marco',
    lastName: 'Rossi',
    city: 'Roma',
    country: 'Italia',
    language: 'it',
    bio: 'Storia antica, fumetti e qualche saggio di economia. Libri tenuti con cura.',
    joinedDaysAgo: 365,
  },
  {
    email: 'francesca.esposito@example.org',
    username: 'fra_esposito',
    firstName: 'Francesca',
    lastName: 'Esposito',
    city: 'Napoli',
    country: 'Italia',
    language: 'it',
    bio: 'Insegnante di lettere. Cerco prime edizioni di Elsa Morante.',
    joinedDaysAgo: 298,
  },
  {
    email: 'luca.ferrari@example.org',
    username: 'lucaferrari',
    firstName: 'Luca',
    lastName: 'Ferrari',
    city: 'Torino',
    country: 'Italia',
    language: 'it',
    bio: 'Fantascienza e fantasy, da Asimov a Le Guin. Preferisco gli scambi.',
    joinedDaysAgo: 240,
  },
  {
    email: 'chiara.romano@example.org',
    username: 'chiara_romano',
    firstName: 'Chiara',
    lastName: 'Romano',
    city: 'Bologna',
    country: 'Italia',
    language: 'it',
    bio: 'Studentessa di architettura: libri illustrati, design e romanzi brevi.',
    joinedDaysAgo: 190,
  },
  {
    email: 'alessandro.colombo@example.org',
    username: 'ale_colombo',
    firstName: 'Alessandro',
    lastName: 'Colombo',
    city: 'Firenze',
    country: 'Italia',
    language: 'it',
    bio: 'Collezionista di Adelphi. Vendo doppioni a prezzi onesti.',
    joinedDaysAgo: 150,
  },
  {
    email: 'sofia.ricci@example.org',
    username: 'sofia_ricci',
    firstName: 'Sofia',
    lastName: 'Ricci',
    city: 'Venezia',
    country: 'Italia',
    language: 'it',
    bio: 'Libri per ragazzi e narrativa contemporanea. Gruppo di lettura il giovedì.',
    joinedDaysAgo: 120,
  },
  {
    email: 'davide.greco@example.org',
    username: 'davidegreco',
    firstName: 'Davide',
    lastName: 'Greco',
    city: 'Palermo',
    country: 'Italia',
    language: 'it',
    bio: 'Sciascia, Camilleri e tutto ciò che parla di Sicilia.',
    joinedDaysAgo: 75,
  },
  {
    email: 'emily.carter@example.org',
    username: 'emily_reads',
    firstName: 'Emily',
    lastName: 'Carter',
    city: 'London',
    country: 'United Kingdom',
    language: 'en',
    bio: 'Living in Milan, reading in two languages. Happy to trade English paperbacks.',
    joinedDaysAgo: 330,
  },
  {
    email: 'james.obrien@example.org',
    username: 'jamesobrien',
    firstName: 'James',
    lastName: "O'Brien",
    city: 'Dublin',
    country: 'Ireland',
    language: 'en',
    bio: 'Irish literature, crime fiction and the odd poetry collection.',
    joinedDaysAgo: 210,
  },
  {
    email: 'olivia.bennett@example.org',
    username: 'olivia_b',
    firstName: 'Olivia',
    lastName: 'Bennett',
    city: 'Manchester',
    country: 'United Kingdom',
    language: 'en',
    bio: 'Learning Italian with graded readers; selling the ones I have finished.',
    joinedDaysAgo: 60,
  },
  {
    email: 'daniel.hughes@example.org',
    username: 'dan_hughes',
    firstName: 'Daniel',
    lastName: 'Hughes',
    city: 'Edinburgh',
    country: 'United Kingdom',
    language: 'en',
    bio: 'History of science and travel writing. Books shipped well wrapped.',
    joinedDaysAgo: 21,
  },
];

export interface SeedContext {
  config: Config;
  database: Database;
  auth: Auth;
  /** The demo members (ids filled in by the members step), for later steps to use. */
  members: Array<DemoMember & { id: string }>;
  log: (message: string) => void;
}

export type SeedStep = (ctx: SeedContext) => Promise<void>;

/** Demo members, created through better-auth (real password hashes), confirmed, with profiles. */
export const seedMembers: SeedStep = async (ctx) => {
  const { database, auth } = ctx;
  const emails = demoMembers.map((m) => m.email);
  const existing = new Map(
    (
      await database.db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.email, emails))
    ).map((r) => [r.email.toLowerCase(), r.id]),
  );
  let created = 0;
  for (const member of demoMembers) {
    let id = existing.get(member.email);
    if (!id) {
      const result = await auth.api.signUpEmail({
        body: {
          email: member.email,
          password: DEMO_PASSWORD,
          name: `${member.firstName} ${member.lastName}`,
          username: member.username,
        },
      });
      id = result.user.id;
      const joined = new Date(Date.now() - member.joinedDaysAgo * 24 * 60 * 60 * 1000);
      await database.db
        .update(users)
        .set({
          emailVerified: true,
          firstName: member.firstName,
          lastName: member.lastName,
          bio: member.bio,
          locationCity: member.city,
          locationCountry: member.country,
          preferredLanguage: member.language,
          createdAt: joined,
          updatedAt: joined,
        })
        .where(eq(users.id, id));
      created++;
    }
    ctx.members.push({ ...member, id });
  }
  ctx.log(`members: ${created} created, ${demoMembers.length - created} already there`);
};

/** Every step, in order. Features append theirs (listings, friendships, posts...). */
export const seedSteps: SeedStep[] = [
  seedMembers,
  seedListings,
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
      console.error(err);
      process.exit(1);
    });
}
