import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { gattopardo } from '../src/server/test/listings';
import { freePort, sessionCookie, AUTH_SECRET, ROOT } from './bench/lib/server';

/**
 * npm run backup and npm run restore as an operator runs them (child processes), against the
 * server as deployed (its own process, the embedded database): members list books with covers
 * through HTTP without pause, a backup is taken in the middle of it, and the backup restored into
 * a fresh DATA_DIR holds every listing acknowledged (201) before the backup began, each with its
 * cover file, and no row whose upload is missing.
 */
const ORIGIN = 'http://localhost:3000';
const MEMBERS = 12;
const root = mkdtempSync(join(tmpdir(), 'scaffale-backup-'));
const dataDir = join(root, 'data');
const backups = join(root, 'backups');
const restored = join(root, 'restored');
const children: ChildProcess[] = [];
let cookies: string[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

function run(file: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; out: string }>((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', STORAGE: 'local', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    child.on('exit', (code) => done({ code, out }));
  });
}

async function startServer(dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: '',
      STORAGE: 'local',
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: ORIGIN,
      AUTH_SECRET,
      LOG_LEVEL: 'warn',
      GOOGLE_BOOKS_ENABLED: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 300) throw new Error('server did not start in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const png = (i: number) =>
  sharp({
    create: {
      width: 30,
      height: 45,
      channels: 3,
      background: `#${(i * 2654435).toString(16).slice(-6).padStart(6, '3')}`,
    },
  })
    .png()
    .toBuffer();

interface Written {
  id: string;
  coverUrl: string | null;
}

/** One member listing books until told to stop, about three a second: a cover every other listing. */
async function writer(url: string, cookie: string, acked: Written[], stop: { now: boolean }) {
  for (let i = 0; !stop.now; i++) {
    const headers = { cookie, origin: ORIGIN };
    let coverUrl: string | null = null;
    if (i % 2 === 0 && i < 56) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await png(i))], { type: 'image/png' }), 'c.png');
      const up = await fetch(`${url}/api/uploads/cover`, { method: 'POST', headers, body: form });
      expect(up.status, await up.clone().text()).toBe(201);
      coverUrl = ((await up.json()) as { url: string }).url;
    }
    const res = await fetch(`${url}/api/listings`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...gattopardo,
        title: `Copia ${i} ${randomBytes(3).toString('hex')}`,
        coverUrl,
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const listing = (await res.json()) as Written;
    expect(listing.coverUrl).toBe(coverUrl);
    acked.push({ id: listing.id, coverUrl });
    // Under the listings' limit of 120 writes a minute per member.
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  // Members with live sessions, written into the database before the server opens it.
  const database = await openPglite(join(dataDir, 'pglite'));
  await migrate(database);
  const ids = Array.from({ length: MEMBERS }, (_, i) => `backup-member-${i}`);
  const tokens = ids.map(() => randomBytes(24).toString('base64url'));
  for (const [i, id] of ids.entries()) {
    await database.query(
      `insert into users (id, email, email_verified, display_name) values ($1, $1 || '@backup.local', true, $1)`,
      [id],
    );
    await database.query(
      `insert into sessions (id, user_id, token, expires_at) values ($1, $2, $1, now() + interval '1 day')`,
      [tokens[i], id],
    );
  }
  await database.close();
  cookies = tokens.map(sessionCookie);
}, 120_000);

describe('npm run backup and npm run restore (embedded database)', () => {
  it('backs up under writes and restores every acknowledged write with its upload', async () => {
    const server = await startServer(dataDir);
    const acked: Written[] = [];
    const stop = { now: false };
    const writers = cookies.map((c) => writer(server.url, c, acked, stop));
    const failed = Promise.race(writers.map((w) => w.then(() => new Promise<never>(() => {}))));
    // Some writes before the backup, then the backup while the writers go on.
    while (acked.length < 30) await Promise.race([failed, new Promise((r) => setTimeout(r, 50))]);
    const before = acked.slice();
    const backup = await Promise.race([
      failed,
      run('scripts/backup.ts', ['--out', backups], { DATA_DIR: dataDir }),
    ]);
    const duringBackup = acked.length - before.length;
    stop.now = true;
    await Promise.all(writers);
    await server.stop();
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('through the running server');
    // The writers did not wait for the backup: it ran under writes.
    expect(duringBackup).toBeGreaterThan(0);

    const [folder] = readdirSync(backups);
    expect(folder).toMatch(/^scaffale-backup-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    const at = join(backups, folder);

    // A restore never overwrites: not into the live DATA_DIR, not into any non-empty folder;
    // a damaged backup is refused before anything is written. (Side by side with the real one.)
    mkdirSync(join(root, 'busy'));
    writeFileSync(join(root, 'busy', 'note.txt'), 'mine');
    const damaged = join(root, 'damaged');
    cpSync(at, damaged, { recursive: true });
    const [first] = (
      JSON.parse(readFileSync(join(at, 'manifest.json'), 'utf8')) as {
        uploads: { files: { path: string }[] };
      }
    ).uploads.files;
    writeFileSync(join(damaged, 'uploads', first.path), 'not the image');
    const [refused, busy, refusedDamaged, restore] = await Promise.all([
      run('scripts/restore.ts', [at], { DATA_DIR: dataDir }),
      run('scripts/restore.ts', [at], { DATA_DIR: join(root, 'busy') }),
      run('scripts/restore.ts', [damaged], { DATA_DIR: join(root, 'other') }),
      run('scripts/restore.ts', [at], { DATA_DIR: restored }),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('is not empty: a restore never overwrites data');
    expect(busy.code).toBe(1);
    expect(readdirSync(join(root, 'busy'))).toEqual(['note.txt']);
    expect(refusedDamaged.code).toBe(1);
    expect(refusedDamaged.out).toContain(
      `uploads/${first.path} is missing or damaged in the backup.`,
    );
    expect(existsSync(join(root, 'other'))).toBe(false);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toContain(`into ${restored}`);

    const again = await startServer(restored);
    try {
      for (const written of before) {
        const res = await fetch(`${again.url}/api/listings/${written.id}`);
        expect(res.status, written.id).toBe(200);
        expect(((await res.json()) as Written).coverUrl).toBe(written.coverUrl);
        if (written.coverUrl) {
          const image = await fetch(`${again.url}${written.coverUrl}`);
          expect(image.status, written.coverUrl).toBe(200);
          expect(image.headers.get('content-type')).toBe('image/webp');
        }
      }
    } finally {
      await again.stop();
    }

    // Consistent: every listing in the copy has its book, every cover it names is a file there.
    const database = await openPglite(join(restored, 'pglite'));
    try {
      const rows = await database.query<{
        id: string;
        cover_url: string | null;
        book: string | null;
      }>(
        `select l.id, l.cover_url, b.id as book from book_listings l left join books b on b.id = l.book_id`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(before.length);
      for (const row of rows) {
        expect(row.book, row.id).not.toBeNull();
        if (row.cover_url)
          expect(existsSync(join(restored, row.cover_url)), row.cover_url).toBe(true);
      }
    } finally {
      await database.close();
    }
  }, 480_000);

  it('on PostgreSQL says to use pg_dump and the bucket’s versioning, with the commands', async () => {
    const res = await run('scripts/backup.ts', [], {
      DATA_DIR: join(root, 'unused'),
      DATABASE_URL: 'postgres://scaffale:secret@db.example:5432/scaffale',
      STORAGE: 's3',
      S3_BUCKET: 'scaffale-uploads',
    });
    expect(res.code).toBe(2);
    expect(res.out).toContain(
      "pg_dump --format=custom --file=scaffale-$(date -u +%Y%m%dT%H%M%SZ).dump 'postgres://scaffale:****@db.example:5432/scaffale'",
    );
    expect(res.out).not.toContain('secret');
    // Nothing written: not even a generated secret in DATA_DIR.
    expect(existsSync(join(root, 'unused'))).toBe(false);
    expect(res.out).toContain('mc version enable scaffale/scaffale-uploads');
    expect(res.out).toContain(
      'aws s3api put-bucket-versioning --bucket scaffale-uploads --versioning-configuration Status=Enabled',
    );
  });
});
