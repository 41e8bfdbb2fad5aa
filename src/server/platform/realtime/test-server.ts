// One Scaffale server process for the two-process test (and the chat benchmark): the real app on
// DATABASE_URL, on a free port. It prints {"url"} once listening, then obeys JSON commands on
// stdin (one a line) so a test can publish from this process and ask it about presence:
//   {"id":1,"op":"toUsers","users":[...],"event":{...}} -> {"id":1,"ok":true}
//   {"id":2,"op":"isOnline","user":"..."}              -> {"id":2,"ok":true,"value":true}
import { createInterface } from 'node:readline';
import { loadConfig } from '../../config';
import { openPostgres } from '../../db/client';
import { buildApp } from '../../app';
import { createRealtime } from './index';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');

const config = loadConfig({
  PORT: '0',
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:3000',
  AUTH_SECRET: process.env.AUTH_SECRET,
  DATA_DIR: process.env.DATA_DIR ?? '/tmp/scaffale-test-data',
  LOG_LEVEL: 'silent',
  DATABASE_URL: databaseUrl,
});
const database = openPostgres(databaseUrl, Number(process.env.POOL_SIZE ?? 4));
const realtime = createRealtime({
  database,
  trustedOrigins: config.trustedOrigins,
  presenceRefreshMs: Number(process.env.PRESENCE_REFRESH_MS ?? 20_000),
});
const app = await buildApp({ config, database, realtime, backgroundJobs: false });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
await realtime.ready();

const write = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);
write({ url, processId: realtime.processId });

type Command = { id: number; op: string; users?: string[]; user?: string; event?: never };
createInterface({ input: process.stdin }).on('line', (line) => {
  const cmd = JSON.parse(line) as Command;
  const run = async () => {
    if (cmd.op === 'toUsers') return realtime.toUsers(cmd.users ?? [], cmd.event!);
    if (cmd.op === 'isOnline') return realtime.isOnline(cmd.user!);
    if (cmd.op === 'onlineAmong') return [...(await realtime.onlineAmong(cmd.users ?? []))];
    if (cmd.op === 'disconnectUsers') return realtime.disconnectUsers(cmd.users ?? []);
    throw new Error(`unknown op ${cmd.op}`);
  };
  run().then(
    (value) => write({ id: cmd.id, ok: true, value }),
    (err: Error) => write({ id: cmd.id, ok: false, error: err.message }),
  );
});

const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
