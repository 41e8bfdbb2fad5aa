/**
 * npm run admin -- grant EMAIL | revoke EMAIL | list
 *
 * Grants or revokes the admin role (who may open /admin) on the configured database, the same
 * one `npm start` uses: PostgreSQL at DATABASE_URL, else the embedded database under DATA_DIR
 * (./data). While a server holds the embedded database, the command asks that server through
 * its control socket (DATA_DIR/admin.sock, readable by the owner of DATA_DIR only).
 */
import 'dotenv/config';
import { existsSync } from 'node:fs';
import { loadConfig } from '../src/server/config';
import { openDatabase, openPostgres } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import {
  runAdminCommand,
  askControlSocket,
  controlSocketPath,
  type ControlAnswer as Result,
} from '../src/server/modules/moderation';

export async function main(args: string[], env = process.env): Promise<Result> {
  const config = loadConfig(env);
  if (config.databaseUrl) {
    const database = openPostgres(config.databaseUrl, 2);
    try {
      await migrate(database);
      return await runAdminCommand(database, args);
    } finally {
      await database.close();
    }
  }
  let database;
  try {
    database = await openDatabase(config);
  } catch (err) {
    const socket = controlSocketPath(config.dataDir);
    if (existsSync(socket)) return askControlSocket(socket, args);
    throw err;
  }
  try {
    await migrate(database);
    return await runAdminCommand(database, args);
  } finally {
    await database.close();
  }
}

const result = await main(process.argv.slice(2)).catch((err: Error): Result => ({
  ok: false,
  output: err.message,
}));
(result.ok ? console.log : console.error)(result.output);
process.exit(result.ok ? 0 : 1);
