/**
 * What deploy-check.test.ts runs: an S3-protocol server (s3rver), two app instances as deployed
 * (NODE_ENV=production, STORAGE=s3, each with its own DATA_DIR, one PostgreSQL database) and
 * Debian's HAProxy with deploy/haproxy.cfg in front of them, plus the test's ways of looking at
 * each instance from the side (its /metrics, its DATA_DIR).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startTestS3, type TestS3 } from '../../src/server/test/s3';
import { AUTH_SECRET, ROOT, freePort, startServer, type RunningServer } from '../bench/lib/server';

export const ORIGIN = 'http://localhost:3000';
export const METRICS_TOKEN = 'deploy-check-metrics-token';
export const BUCKET = 'scaffale-deploy-check';

export function haproxyAvailable(): boolean {
  const has = () => spawnSync('haproxy', ['-v']).status === 0;
  if (has()) return true;
  if (process.getuid?.() === 0)
    spawnSync('apt-get', ['install', '-y', '-q', 'haproxy'], { stdio: 'ignore', timeout: 120_000 });
  return has();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Cluster {
  s3: TestS3;
  apps: RunningServer[];
  proxyUrl: string;
  /** ws://… of the proxy. */
  proxyWs: string;
  /** http://127.0.0.1:<port> of instance i (0 or 1), straight, not through the proxy. */
  direct(i: number): string;
  /** Starts instance i again (after it exited) on its port and DATA_DIR. */
  restart(i: number): Promise<void>;
  /** Instance i's /metrics text (with the token). */
  metrics(i: number): Promise<string>;
  /**
   * How many requests instance i answered for this route pattern (and status, when given),
   * from its request-duration histogram.
   */
  served(i: number, method: string, route: string, status?: number): Promise<number>;
  /** The requests HAProxy logged so far (its httplog lines, parsed). */
  proxyLog: ProxiedRequest[];
  /** Resolves once the proxy sends requests to instance i again (its health checks passed). */
  untilInRotation(i: number): Promise<void>;
  stop(): Promise<void>;
}

/** One line of HAProxy's `option httplog`: who served a request, and how often it was tried. */
export interface ProxiedRequest {
  server: string;
  status: number;
  /** Connection attempts after the first (HAProxy's retries, L7 retries on a 503 included). */
  retries: number;
  /** The last try went to another server than the first. */
  redispatched: boolean;
  method: string;
  path: string;
}

// ci:cp [date] frontend backend/server TR/Tw/Tc/Tr/Ta status bytes cc cs tsc ac/fc/bc/sc/rc sq/bq "request"
const HTTPLOG =
  /\] \S+ [^/ ]+\/(\S+) \S+ (-?\d+) \S+ \S+ \S+ \S+ \d+\/\d+\/\d+\/\d+\/(\+?)(\d+) \d+\/\d+ "(\S+) (\S+)/;

export function parseHttplog(line: string): ProxiedRequest | null {
  const m = HTTPLOG.exec(line);
  if (!m) return null;
  return {
    server: m[1],
    status: Number(m[2]),
    retries: Number(m[4]),
    redispatched: m[3] === '+',
    method: m[5],
    path: m[6],
  };
}

/** Every file under dir, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

export async function startCluster(
  databaseUrl: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Cluster> {
  const s3 = await startTestS3(BUCKET);
  const env: NodeJS.ProcessEnv = {
    AUTH_SECRET,
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: 'true',
    // As compose.yaml: serve on for 5 s after SIGTERM while HAProxy's checks take the instance out.
    DRAIN_DELAY_MS: '5000',
    METRICS_TOKEN,
    DEV_MAIL_VIEWER: 'true',
    DATABASE_POOL_SIZE: '4',
    STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.settings.region,
    S3_BUCKET: BUCKET,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
    ...extraEnv,
  };
  const apps = await Promise.all([
    startServer(databaseUrl, env, 'scaffale-deploy-1-'),
    startServer(databaseUrl, env, 'scaffale-deploy-2-'),
  ]);
  const port = await freePort();
  const proxyUrl = `http://127.0.0.1:${port}`;
  const proxy: ChildProcess = spawn('haproxy', ['-db', '-f', 'deploy/haproxy.cfg'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PROXY_BIND: `127.0.0.1:${port}`,
      SCAFFALE_APP1: `127.0.0.1:${apps[0].port}`,
      SCAFFALE_APP2: `127.0.0.1:${apps[1].port}`,
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const proxyLog: ProxiedRequest[] = [];
  createInterface({ input: proxy.stdout! }).on('line', (line) => {
    const request = parseHttplog(line);
    if (request) proxyLog.push(request);
  });
  const direct = (i: number) => `http://127.0.0.1:${apps[i].port}`;
  const metrics = async (i: number) => {
    const res = await fetch(`${direct(i)}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    if (res.status !== 200) throw new Error(`metrics of instance ${i + 1}: ${res.status}`);
    return res.text();
  };
  const served = async (i: number, method: string, route: string, status?: number) => {
    let total = 0;
    for (const line of (await metrics(i)).split('\n')) {
      if (!line.startsWith('scaffale_http_request_duration_seconds_count{')) continue;
      const labels = Object.fromEntries(
        [...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      if (labels.method !== method || labels.route !== route) continue;
      if (status !== undefined && labels.status !== String(status)) continue;
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return total;
  };
  const cluster: Cluster = {
    s3,
    apps,
    proxyUrl,
    proxyWs: proxyUrl.replace('http', 'ws'),
    proxyLog,
    direct,
    metrics,
    served,
    async restart(i) {
      const { port: appPort, dataDir } = apps[i];
      apps[i] = await startServer(databaseUrl, {
        ...env,
        PORT: String(appPort),
        DATA_DIR: dataDir,
      });
    },
    async untilInRotation(i) {
      for (let tries = 0; tries < 100; tries++) {
        const before = await served(i, 'GET', '/api/health');
        await Promise.all([fetch(`${proxyUrl}/api/health`), fetch(`${proxyUrl}/api/health`)]);
        if ((await served(i, 'GET', '/api/health')) > before) return;
        await sleep(200);
      }
      throw new Error(`the proxy did not send requests to instance ${i + 1} again`);
    },
    async stop() {
      proxy.kill('SIGTERM');
      await Promise.all(
        apps.map((a) => (a.child.exitCode === null ? a.stop().catch(() => {}) : undefined)),
      );
      await s3.close().catch(() => {});
    },
  };
  for (let i = 0; ; i++) {
    const up = await fetch(`${proxyUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 100 || proxy.exitCode !== null) {
      await cluster.stop();
      throw new Error('haproxy did not start');
    }
    await sleep(100);
  }
  return cluster;
}

/** Kills instance i with SIGKILL and waits for it to be gone. */
export async function kill(app: RunningServer): Promise<void> {
  const exited = once(app.child, 'exit');
  app.child.kill('SIGKILL');
  await exited;
}
