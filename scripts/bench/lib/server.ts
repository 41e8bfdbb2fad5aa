/**
 * What the benchmarks share to run the app: the repository's root and the goodbooks-10k data,
 * creating a benchmark database, TypeScript entry points in processes of their own (the server,
 * the load generators), and the session cookie of members written straight into the database.
 * The server never runs in the process that measures it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Beside the repository, never copied into it (BENCH_BOOKS_CSV for a checkout elsewhere). */
export const BOOKS_CSV = process.env.BENCH_BOOKS_CSV
  ? new URL(`file://${process.env.BENCH_BOOKS_CSV}`)
  : new URL('../shared/data/goodbooks-10k/books.csv', `file://${ROOT}`);
/** The origin requests claim (the server's CSRF check accepts its own PUBLIC_URL). */
export const ORIGIN = 'http://localhost:3000';
/** The server's AUTH_SECRET, so that this process can sign session cookies for it. */
export const AUTH_SECRET = process.env.AUTH_SECRET ?? randomBytes(32).toString('base64url');

/** better-auth's signed session cookie: the token, a dot and its HMAC-SHA256 in base64. */
export function sessionCookie(token: string): string {
  const signature = createHmac('sha256', AUTH_SECRET).update(token).digest('base64');
  return `scaffale.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** Creates the database at url when it is missing (saying so when `announce`). */
export async function ensureDatabase(url: string, announce = false) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      if (announce) console.log(`creating database ${name}`);
      await client.query(`create database ${pg.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * A TypeScript entry point (a path from the repository's root) in a new Node process, tsx as
 * loader, with this process's environment and `env` over it; its stderr shows here.
 */
export function node(
  file: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  stdout: 'pipe' | 'ignore' = 'pipe',
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

/** An entry point that prints one JSON line when ready (chat-server.ts, chat-load.ts): that line. */
export function firstJsonLine<T>(child: ChildProcess, file: string): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve(JSON.parse(line) as T),
    );
  });
}

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * The server as deployed (src/server/main.ts, NODE_ENV=production) in its own process on a free
 * port, on the PostgreSQL database at url, with a fresh DATA_DIR and `env` over the rest;
 * resolves once GET /api/health answers 200 (BENCH_START_SECONDS, 60 s, at the most: more on a
 * machine others keep busy).
 */
const START_SECONDS = Number(process.env.BENCH_START_SECONDS ?? 60);
export async function startServer(
  url: string,
  env: NodeJS.ProcessEnv = {},
  dataDirPrefix = 'scaffale-bench-',
): Promise<RunningServer> {
  const port = await freePort();
  const child = node(
    'src/server/main.ts',
    [],
    {
      NODE_ENV: 'production',
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      DATA_DIR: mkdtempSync(join(tmpdir(), dataDirPrefix)),
      ...env,
    },
    'ignore',
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > START_SECONDS * 5) throw new Error(`server did not start in ${START_SECONDS} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
