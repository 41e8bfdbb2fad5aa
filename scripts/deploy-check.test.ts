import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import {
  AUTH_SECRET,
  ROOT,
  freePort,
  sessionCookie,
  startServer,
  type RunningServer,
} from './bench/lib/server';

/**
 * deploy/haproxy.cfg, the file compose.yaml mounts, run by Debian's HAProxy in front of two app
 * processes on one PostgreSQL database (each with its own DATA_DIR): a page, API calls and a
 * WebSocket pass through it, /metrics does not, spoofed client addresses are dropped, and when
 * one instance dies the proxy sends everything to the other.
 *
 * Needs `haproxy` (installed when root, as the e2e suite installs Chromium) and a PostgreSQL
 * server (TEST_DATABASE_URL); otherwise it is skipped, saying what to run.
 */
const ORIGIN = 'http://localhost:3000';

function haproxyAvailable(): boolean {
  const has = () => spawnSync('haproxy', ['-v']).status === 0;
  if (has()) return true;
  if (process.getuid?.() === 0)
    spawnSync('apt-get', ['install', '-y', '-q', 'haproxy'], { stdio: 'ignore', timeout: 120_000 });
  return has();
}

const databaseUrl = process.env.TEST_DATABASE_URL;
const ready = !!databaseUrl && haproxyAvailable();
if (!ready)
  console.warn(
    'deploy-check skipped: needs haproxy (apt-get install -y haproxy) and PostgreSQL, e.g. ' +
      'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run scripts/deploy-check.test.ts',
  );

describe.skipIf(!ready)('deploy/haproxy.cfg in front of two instances', () => {
  const name = `scaffale_deploy_check_${process.pid}`;
  let url: string;
  let admin: pg.Client;
  let apps: RunningServer[] = [];
  let proxy: ChildProcess;
  let proxyUrl: string;
  let cookie: string;

  beforeAll(async () => {
    const base = new URL(databaseUrl!);
    base.pathname = '/postgres';
    admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const target = new URL(databaseUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
    // A member with a live session, for the WebSocket.
    const database = openPostgres(url, 1);
    await migrate(database);
    const token = randomBytes(24).toString('base64url');
    await database.query(
      `insert into users (id, email, email_verified, display_name) values ('deploy-1', 'deploy-1@check.local', true, 'Deploy')`,
    );
    await database.query(
      `insert into sessions (id, user_id, token, expires_at) values ($1, 'deploy-1', $1, now() + interval '1 day')`,
      [token],
    );
    await database.close();
    cookie = sessionCookie(token);
    const env = {
      AUTH_SECRET,
      PUBLIC_URL: ORIGIN,
      TRUST_PROXY: 'true',
      METRICS: 'on',
      DEV_MAIL_VIEWER: 'true',
      DATABASE_POOL_SIZE: '3',
    };
    apps = await Promise.all([startServer(url, env), startServer(url, env)]);
    const port = await freePort();
    proxyUrl = `http://127.0.0.1:${port}`;
    proxy = spawn('haproxy', ['-db', '-f', 'deploy/haproxy.cfg'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PROXY_BIND: `127.0.0.1:${port}`,
        SCAFFALE_APP1: `127.0.0.1:${apps[0].port}`,
        SCAFFALE_APP2: `127.0.0.1:${apps[1].port}`,
      },
      stdio: 'ignore',
    });
    for (let i = 0; ; i++) {
      const up = await fetch(`${proxyUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 100 || proxy.exitCode !== null) throw new Error('haproxy did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(async () => {
    proxy?.kill('SIGTERM');
    await Promise.all(apps.map((a) => a.stop().catch(() => {})));
    await admin?.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin?.end();
  });

  it('passes a page, API calls and a WebSocket, keeps /metrics and the outbox private', async () => {
    const page = await fetch(`${proxyUrl}/`, { headers: { 'accept-language': 'it' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root"');

    // Round robin: the calls reach both instances, each answering from the same database.
    for (let i = 0; i < 4; i++) {
      const me = await fetch(`${proxyUrl}/api/me/listings`, { headers: { cookie } });
      expect(me.status).toBe(200);
    }

    // The WebSocket: the upgrade passes, and frames go both ways (a ping answered by a pong).
    const ws = new WebSocket(`${proxyUrl.replace('http', 'ws')}/api/realtime`, {
      headers: { cookie },
      origin: ORIGIN,
    });
    await once(ws, 'open');
    ws.ping();
    await once(ws, 'pong');
    ws.close();

    // Prometheus reads each instance directly; through the proxy there is nothing.
    expect((await fetch(`${proxyUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${apps[0].port}/metrics`)).status).toBe(200);

    // A client cannot choose its address: HAProxy drops X-Forwarded-For and adds the real one,
    // so the outbox viewer (loopback, no proxy headers) stays closed through the proxy.
    const spoofed = await fetch(`${proxyUrl}/api/dev/mail`, {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(spoofed.status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${apps[1].port}/api/dev/mail`)).status).toBe(200);
  });

  it('sends every request to the survivor when an instance dies', async () => {
    apps[0].child.kill('SIGKILL');
    await once(apps[0].child, 'exit').catch(() => {});
    // Without waiting for the health check: a connection refused is tried on the other one.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${proxyUrl}/api/health`);
      expect(res.status).toBe(200);
    }
    const ws = new WebSocket(`${proxyUrl.replace('http', 'ws')}/api/realtime`, {
      headers: { cookie },
      origin: ORIGIN,
    });
    await once(ws, 'open');
    ws.close();
  });
});
