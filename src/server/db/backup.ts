/**
 * Backups of the embedded database (PGlite under DATA_DIR/pglite) and the local uploads
 * (DATA_DIR/uploads), taken while the server runs and writes (decision 0063).
 *
 * The snapshot is taken inside PGlite's own lock, the one every query and transaction waits on:
 * no transaction is open, a CHECKPOINT writes every committed change into the data files, the
 * data folder is dumped as a tarball and every upload is hard-linked into a staging folder beside
 * it (a link keeps the file even if the app deletes it a moment later). Only then does the app
 * write again; the uploads are copied out of the staging folder afterwards. So the backup holds
 * every transaction committed before it and none after, and every upload those rows reference.
 *
 * Used by the running server (asked through DATA_DIR/admin.sock) and by `npm run backup` itself
 * when no server holds the database; `npm run restore` reads the result.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, linkSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { chmod, cp, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { PGlite, protocol } from '@electric-sql/pglite';
import { pgliteExtensions } from './client';
import { sql } from './sql';

const gzip = promisify(gzipCallback);

export const BACKUP_FORMAT = 'scaffale-backup';
export const DATABASE_FILE = 'database.tar.gz';
export const MANIFEST_FILE = 'manifest.json';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** How the database was copied: PGlite's data folder, dumped after a CHECKPOINT under its lock. */
  method: 'pglite-datadir';
  database: {
    file: string;
    bytes: number;
    sha256: string;
    /** The last migration applied: the restored database is at this schema. */
    lastMigration: string | null;
    /** Rows per table in the copy, checked again after a restore. */
    rows: Record<string, number>;
  };
  uploads: {
    storage: 'local' | 's3';
    files: { path: string; bytes: number; sha256: string }[];
    bytes: number;
  };
  /** DATA_DIR/secrets.json (the generated AUTH_SECRET), so restored sessions stay valid. */
  secrets: boolean;
}

/** Regular upload files under root, as paths relative to it; dot files and folders are skipped (.sized widths, temporary files). */
export function listUploads(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

export function sha256File(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done(hash.digest('hex')))
      .on('error', fail);
  });
}

/** True when `inner` is `outer` or inside it. */
export function isInside(inner: string, outer: string): boolean {
  const a = resolve(inner);
  const b = resolve(outer);
  return a === b || a.startsWith(b.endsWith(sep) ? b : b + sep);
}

/**
 * Writes the database tarball, the uploads and secrets.json into `stage` (a new folder), from
 * the PGlite instance that owns DATA_DIR/pglite. Returns how long the app was held, in ms.
 */
export async function writeSnapshot(
  pglite: PGlite,
  dataDir: string,
  stage: string,
  opts: { uploads: boolean } = { uploads: true },
): Promise<{ heldMs: number }> {
  if (isInside(stage, dataDir)) throw new Error('The backup cannot be written inside DATA_DIR.');
  await mkdir(stage, { recursive: false });
  const uploadsDir = join(dataDir, 'uploads');
  // Hard links need the same file system as the uploads: a folder beside them, removed after.
  const links = join(dataDir, `.backup-${process.pid}-${Date.now()}`);
  let heldMs = 0;
  let tarball: Blob;
  try {
    tarball = await pglite._runExclusiveTransaction(async () => {
      const started = performance.now();
      // No query or transaction runs now: flush every committed change into the data files.
      const checkpoint = await pglite.execProtocol(protocol.serialize.query('CHECKPOINT'));
      if (checkpoint.messages.some((m) => m.name === 'error')) throw new Error('CHECKPOINT failed');
      // Uncompressed: compressing here would hold the app longer; it is gzipped after, off the main thread.
      const dump = await pglite.dumpDataDir('none');
      if (opts.uploads) {
        for (const path of listUploads(uploadsDir)) {
          mkdirSync(dirname(join(links, path)), { recursive: true });
          linkSync(join(uploadsDir, path), join(links, path));
        }
      }
      heldMs = performance.now() - started;
      return dump;
    });
    const gzipped = await gzip(Buffer.from(await tarball.arrayBuffer()));
    await writeFile(join(stage, DATABASE_FILE), gzipped, { mode: 0o600 });
    if (opts.uploads && existsSync(links))
      await cp(links, join(stage, 'uploads'), { recursive: true });
    const secrets = join(dataDir, 'secrets.json');
    if (existsSync(secrets)) {
      await copyFile(secrets, join(stage, 'secrets.json'));
      await chmod(join(stage, 'secrets.json'), 0o600);
    }
  } finally {
    await rm(links, { recursive: true, force: true });
  }
  return { heldMs };
}

/** Opens a database tarball in memory: its last migration and rows per table (proves it loads). */
export async function inspectDatabase(
  tarball: Buffer,
): Promise<{ lastMigration: string | null; rows: Record<string, number> }> {
  const db = await PGlite.create({
    loadDataDir: new Blob([new Uint8Array(tarball)]),
    extensions: pgliteExtensions,
  });
  try {
    const [last] = (
      await db.query<{ name: string }>('select max(name) as name from schema_migrations')
    ).rows;
    const tables = (
      await db.query<{ name: string }>(
        `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
      )
    ).rows;
    const rows: Record<string, number> = {};
    for (const { name } of tables) {
      const [count] = (
        await db.query<{ n: number }>(
          sql`select count(*)::int as n from ${sql.identifier(name)}`.text,
        )
      ).rows;
      rows[name] = count.n;
    }
    return { lastMigration: last?.name ?? null, rows };
  } finally {
    await db.close();
  }
}

/** Checks a staged backup (loads its database, hashes its files) and writes its manifest. */
export async function writeManifest(
  stage: string,
  storage: 'local' | 's3',
  createdAt: Date,
): Promise<BackupManifest> {
  const tarball = await readFile(join(stage, DATABASE_FILE));
  const inspected = await inspectDatabase(tarball);
  const files: BackupManifest['uploads']['files'] = [];
  for (const path of listUploads(join(stage, 'uploads'))) {
    const full = join(stage, 'uploads', path);
    files.push({ path, bytes: statSync(full).size, sha256: await sha256File(full) });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: createdAt.toISOString(),
    method: 'pglite-datadir',
    database: {
      file: DATABASE_FILE,
      bytes: tarball.length,
      sha256: createHash('sha256').update(tarball).digest('hex'),
      ...inspected,
    },
    uploads: { storage, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) },
    secrets: existsSync(join(stage, 'secrets.json')),
  };
  await writeFile(join(stage, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export async function readManifest(backup: string): Promise<BackupManifest> {
  const file = join(backup, MANIFEST_FILE);
  if (!existsSync(file))
    throw new Error(`${backup} is not a Scaffale backup (no ${MANIFEST_FILE}).`);
  const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1)
    throw new Error(`${file} is not a Scaffale backup manifest this version can read.`);
  return manifest;
}
