import { spawn, type ChildProcess } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/client';
import { migrate } from '../db/migrate';
import { createTestApp, createTestDatabase, testConfig } from '../test/app';
import { createMember, type Member } from '../test/members';
import { createNullRealtime } from './realtime';
import { mustOpen } from './realtime/testing';

const ORIGIN = 'http://localhost:3000';
const DELAY_MS = 1500;
const TIMEOUT_MS = 4000;
const pgUrl = process.env.TEST_DATABASE_URL;

/** A member in a database the server process will open (PGlite folder, or a PostgreSQL one). */
async function prepare(dataDir: string): Promise<{ member: Member; databaseUrl?: string }> {
  const database = pgUrl ? await createTestDatabase() : await openPglite(`${dataDir}/pglite`);
  if (!pgUrl) await migrate(database);
  const t = await createTestApp({ database, deps: { realtime: createNullRealtime() } });
  const member = await createMember(t);
  await t.app.close();
  if (pgUrl) return { member, databaseUrl: String(database.pool!.options.connectionString) };
  await database.close();
  return { member };
}

/** `node src/server/main.ts`, as `npm start` runs it, on a port of its choosing. */
async function startServer(dataDir: string, databaseUrl?: string, env: NodeJS.ProcessEnv = {}) {
  const main = fileURLToPath(new URL('../main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: ORIGIN,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      WEB_CONCURRENCY: '1',
      AUTH_SECRET: testConfig().authSecret,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      DRAIN_DELAY_MS: String(DELAY_MS),
      DRAIN_TIMEOUT_MS: String(TIMEOUT_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stderr!.on('data', (chunk) => logs.push(String(chunk)));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${logs.join('')}`)), 90_000);
    void exited.then(({ code }) => reject(new Error(`exited ${code}: ${logs.join('')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logs.push(line);
      const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  return { child, url, exited, logs };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A request on a connection of its own, whose body is sent in two halves when asked. */
function slowPost(url: string, path: string, payload: unknown) {
  const body = Buffer.from(JSON.stringify(payload));
  const half = Math.floor(body.length / 2);
  const req = request(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': body.length,
      origin: ORIGIN,
      'accept-language': 'en',
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)) };
}

const get = (url: string) =>
  new Promise<Answer>((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    })
      .on('error', reject)
      .end();
  });

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`draining on SIGTERM (a real server process, ${pgUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scaffale-drain-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /api/ready 503, tells sockets to reconnect, finishes requests in flight, cuts the rest at the bound and exits 0', async () => {
    const { member, databaseUrl } = await prepare(dataDir);
    const server = await startServer(dataDir, databaseUrl);
    child = server.child;
    const { url } = server;

    const ready = await get(`${url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready' });

    const socket = await mustOpen(url, { cookie: member.cookie, origin: ORIGIN });
    // Two requests in flight: one finishes during the drain, the other never does.
    const signIn = slowPost(url, '/api/accounts/sign-in', {
      identifier: member.email,
      password: member.password,
    });
    const stuck = slowPost(url, '/api/accounts/sign-in', {
      identifier: member.email,
      password: 'never-finished',
    });
    const stuckOutcome = stuck.answer.then(
      (a) => `answered ${a.status}`,
      (err: NodeJS.ErrnoException) => `cut (${err.code ?? err.message})`,
    );
    // The server has read both requests' headers (it logs each request as it starts).
    const started = await until(
      async () =>
        server.logs.filter((l) => l.includes('incoming request') && l.includes('/sign-in')).length,
      (n) => n === 2,
      10_000,
    );
    expect(started).toBe(2);

    const signalledAt = Date.now();
    child.kill('SIGTERM');

    // The socket is told to reconnect (1012, service restart) at once.
    const code = await Promise.race([
      socket.closed,
      new Promise((r) => setTimeout(() => r('still open'), 1000)),
    ]);
    expect(code).toBe(1012);

    // While it still accepts (DRAIN_DELAY_MS), it says it is draining; liveness stays 200.
    const draining = await until(
      () => get(`${url}/api/ready`),
      (a) => a.status === 503,
    );
    expect(draining.status).toBe(503);
    expect(JSON.parse(draining.body)).toEqual({ status: 'draining' });
    expect(draining.headers.connection).toBe('close');
    expect((await get(`${url}/api/health`)).status).toBe(200);
    // A new socket is refused.
    const refused = await mustOpen(url, { cookie: member.cookie, origin: ORIGIN }).then(
      () => 'opened',
      () => 'refused',
    );
    expect(refused).toBe('refused');

    // After the delay it accepts no new connection...
    const after = await until(
      () =>
        get(`${url}/api/health`).then(
          (a) => `answered ${a.status}`,
          (e) => e.code as string,
        ),
      (v) => v === 'ECONNREFUSED',
      DELAY_MS + 3000,
    );
    expect(after).toBe('ECONNREFUSED');
    // ...but the request in flight is still served, to the end.
    signIn.finish();
    const signedIn = await signIn.answer;
    expect(signedIn.status, signedIn.body).toBe(200);
    expect(JSON.parse(signedIn.body).user.email).toBe(member.email);
    expect(signedIn.headers.connection).toBe('close');

    // The one that never finishes is cut at DRAIN_TIMEOUT_MS, and the process exits 0.
    expect(await stuckOutcome).toMatch(/^cut/);
    const { code: exitCode, at } = await server.exited;
    expect(exitCode, server.logs.join('\n')).toBe(0);
    const took = at - signalledAt;
    expect(took).toBeGreaterThanOrEqual(DELAY_MS + TIMEOUT_MS - 200);
    expect(took).toBeLessThan(DELAY_MS + TIMEOUT_MS + 5000);
    const messages = server.logs.join('\n');
    expect(messages).toContain('cutting their connections');
    expect(messages).toContain('drained: requests finished, jobs stopped, database closed');
  }, 180_000);
});

describe.skipIf(!pgUrl)('draining with WEB_CONCURRENCY=2 (PostgreSQL)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scaffale-drain-cluster-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the primary passes SIGTERM to its workers, which drain, and exits 0 after the last', async () => {
    const { member, databaseUrl } = await prepare(dataDir);
    const server = await startServer(dataDir, databaseUrl, {
      WEB_CONCURRENCY: '2',
      DRAIN_DELAY_MS: '0',
    });
    child = server.child;
    // Both workers listen before the signal (each logs its own line).
    await until(
      async () => server.logs.filter((l) => l.includes('Server listening at')).length,
      (n) => n === 2,
      60_000,
    );
    const sockets = await Promise.all(
      Array.from({ length: 4 }, () =>
        mustOpen(server.url, { cookie: member.cookie, origin: ORIGIN }),
      ),
    );
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    expect(await Promise.all(sockets.map((s) => s.closed))).toEqual([1012, 1012, 1012, 1012]);
    const { code, at } = await server.exited;
    expect(code, server.logs.join('\n')).toBe(0);
    expect(at - signalledAt).toBeLessThan(TIMEOUT_MS);
    const drained = server.logs.filter((l) => l.includes('drained: requests finished'));
    expect(drained).toHaveLength(2);
  }, 180_000);
});
