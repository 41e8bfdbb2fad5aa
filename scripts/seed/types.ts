/** The shapes the demo seed's steps share (scripts/seed/run.ts runs them in order). */
import type { Config } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import type { Auth } from '../../src/server/platform/auth/instance';

/** A demo member as the members step creates them. */
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

export interface SeedContext {
  config: Config;
  database: Database;
  auth: Auth;
  /** The demo members (ids filled in by the members step), for later steps to use. */
  members: Array<DemoMember & { id: string }>;
  log: (message: string) => void;
}

export type SeedStep = (ctx: SeedContext) => Promise<void>;
