// One server process's digest job for the two-process test (digest.test.ts), not a test itself:
// its own connection pool on DATABASE_URL, the outbox mailer, the clock at NOW. It prints
// {"ready":true}, waits for a line on stdin, runs the digest once and prints {"sent":n}.
import { createInterface } from 'node:readline';
import { openPostgres } from '../../db/client';
import { createMailer } from '../../platform/mail';
import { createNotifications } from '../../platform/notifications';
import { createNullRealtime } from '../../platform/realtime';
import { defineSavedSearchTypes } from './alerts';
import { createSavedSearchDigest } from './digest';

const url = process.env.DATABASE_URL;
const at = process.env.NOW;
if (!url || !at) throw new Error('DATABASE_URL and NOW are required');
const database = openPostgres(url, 2);
const now = () => new Date(at);
const log = { warn() {}, error() {} };
const mailer = createMailer({ database, from: 'Scaffale <no-reply@scaffale.local>' });
const notifications = createNotifications({
  database,
  realtime: createNullRealtime(),
  mailer,
  publicUrl: 'http://localhost:3000',
  now,
  log,
});
defineSavedSearchTypes(notifications, database);
const digest = createSavedSearchDigest({
  database,
  mailer,
  notifications,
  publicUrl: 'http://localhost:3000',
  now,
  log,
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
createInterface({ input: process.stdin }).once('line', async () => {
  const sent = await digest.run();
  process.stdout.write(`${JSON.stringify({ sent })}\n`);
  await database.close();
  process.exit(0);
});
