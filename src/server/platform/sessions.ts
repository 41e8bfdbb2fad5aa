import type { Config } from '../config';
import type { Database } from '../db/client';
import type { SessionResolver } from './auth';

/** Placeholder until accounts land: nobody is signed in. The accounts module replaces this. */
export async function createSessions(
  _config: Config,
  _database: Database,
): Promise<SessionResolver | undefined> {
  return undefined;
}
