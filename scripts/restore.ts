/**
 * npm run restore -- BACKUP_FOLDER
 *
 * Brings a backup written by `npm run backup` back into DATA_DIR, which must be empty or missing
 * (a restore never overwrites a database). Every file is checked against the manifest's SHA-256
 * first, and the restored database's rows per table against the manifest after; on any failure
 * DATA_DIR is left empty again. Then `npm start` on that DATA_DIR serves the restored site.
 * See docs/operations.md#backups-and-restore.
 */
import 'dotenv/config';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/client';
import { readManifest, sha256File, type BackupManifest } from '../src/server/db/backup';

async function rowsOf(dataDir: string, manifest: BackupManifest, tarball: Buffer) {
  const database = await openPglite(join(dataDir, 'pglite'), new Blob([new Uint8Array(tarball)]));
  try {
    const wrong: string[] = [];
    for (const [table, expected] of Object.entries(manifest.database.rows)) {
      const [row] = await database.query<{ n: number }>(
        `select count(*)::int as n from "${table.replace(/"/g, '""')}"`,
      );
      if (row.n !== expected) wrong.push(`${table}: ${row.n} rows, the backup had ${expected}`);
    }
    if (wrong.length) throw new Error(`the restored database differs:\n  ${wrong.join('\n  ')}`);
  } finally {
    await database.close();
  }
}

async function main(args: string[]): Promise<string> {
  const backup = args.find((a) => !a.startsWith('--'));
  if (!backup)
    throw new Error('Usage: npm run restore -- BACKUP_FOLDER   (into an empty DATA_DIR)');
  // Not the real secret (restored from the backup): loading it would write a new one into DATA_DIR.
  const config = loadConfig({ ...process.env, AUTH_SECRET: process.env.AUTH_SECRET ?? 'restore' });
  const dataDir = config.dataDir;
  const manifest = await readManifest(resolve(backup));
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    throw new Error(
      `DATA_DIR (${dataDir}) is not empty: a restore never overwrites data. ` +
        'Stop the server, move that folder aside, and run the restore again (or set DATA_DIR to a new folder).',
    );
  const tarball = await readFile(join(backup, manifest.database.file));
  if (createHash('sha256').update(tarball).digest('hex') !== manifest.database.sha256)
    throw new Error(
      `${manifest.database.file} is damaged (its SHA-256 differs from the manifest).`,
    );
  for (const file of manifest.uploads.files) {
    const path = join(backup, 'uploads', file.path);
    if (!existsSync(path) || (await sha256File(path)) !== file.sha256)
      throw new Error(`uploads/${file.path} is missing or damaged in the backup.`);
  }
  const createdDir = !existsSync(dataDir);
  await mkdir(dataDir, { recursive: true });
  try {
    await rowsOf(dataDir, manifest, tarball);
    for (const file of manifest.uploads.files) {
      const to = join(dataDir, 'uploads', file.path);
      await mkdir(dirname(to), { recursive: true });
      await copyFile(join(backup, 'uploads', file.path), to);
    }
    if (manifest.secrets) {
      await copyFile(join(backup, 'secrets.json'), join(dataDir, 'secrets.json'));
      await chmod(join(dataDir, 'secrets.json'), 0o600);
    }
  } catch (err) {
    // Leave DATA_DIR as it was found: empty (or absent), ready for another attempt.
    if (createdDir) await rm(dataDir, { recursive: true, force: true });
    else
      for (const entry of readdirSync(dataDir))
        await rm(join(dataDir, entry), { recursive: true, force: true });
    throw err;
  }
  const rows = Object.values(manifest.database.rows).reduce((a, b) => a + b, 0);
  return (
    `restored ${backup} (taken ${manifest.createdAt}) into ${dataDir}\n` +
    `  database: ${rows} rows, schema ${manifest.database.lastMigration}\n` +
    (manifest.uploads.storage === 'local'
      ? `  uploads: ${manifest.uploads.files.length} files`
      : '  uploads: in the S3 bucket (not part of this backup)') +
    `\nstart it with: DATA_DIR=${dataDir} npm start`
  );
}

try {
  console.log(await main(process.argv.slice(2)));
  process.exit(0);
} catch (err) {
  console.error(`restore failed: ${(err as Error).message}`);
  process.exit(1);
}
