// One server process for the two-process window test (window.two-process.test.ts), not a test
// itself: the real app on DATABASE_URL with its background jobs on and its clock at NOW. It prints
// {"built":true}, waits for a line on stdin, gets ready (which runs the post window job once, as
// at every start), prints {"ready":true} and exits.
import { createInterface } from 'node:readline';
import { loadConfig } from '../../../config';
import { openPostgres } from '../../../db/client';
import { buildApp } from '../../../app';
import { createNullRealtime } from '../../../platform/realtime';

const databaseUrl = process.env.DATABASE_URL;
const at = process.env.NOW;
if (!databaseUrl || !at) throw new Error('DATABASE_URL and NOW are required');
const config = loadConfig({
  PORT: '0',
  PUBLIC_URL: 'http://localhost:3000',
  AUTH_SECRET: process.env.AUTH_SECRET,
  DATA_DIR: process.env.DATA_DIR ?? '/tmp/scaffale-test-data',
  LOG_LEVEL: 'silent',
  DATABASE_URL: databaseUrl,
});
const database = openPostgres(databaseUrl, 4);
const app = await buildApp({
  config,
  database,
  realtime: createNullRealtime(),
  backgroundJobs: true,
  now: () => new Date(at),
});
process.stdout.write(`${JSON.stringify({ built: true })}\n`);
createInterface({ input: process.stdin }).once('line', async () => {
  await app.ready();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await app.close();
  await database.close();
  process.exit(0);
});
