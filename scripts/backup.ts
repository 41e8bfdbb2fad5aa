/**
 * npm run backup [-- --out FOLDER]
 *
 * A consistent copy of the embedded database and the local uploads, taken while the server runs
 * (it is asked through DATA_DIR/admin.sock) or, when no server holds the database, from the files
 * directly: a folder FOLDER/scaffale-backup-<time>/ with manifest.json, database.tar.gz,
 * uploads/ and secrets.json. On PostgreSQL (DATABASE_URL) it prints the pg_dump and bucket
 * commands to use instead and exits 2. Restore with `npm run restore -- <folder>`.
 * See docs/operations.md#backups-and-restore and decision 0063.
 */
import 'dotenv/config';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/client';
import { isInside, writeManifest, writeSnapshot } from '../src/server/db/backup';
import {
  askControlSocket,
  controlSocketPath,
  type ControlAnswer as Result,
} from '../src/server/modules/moderation';

function postgresAdvice(databaseUrl: string, bucket?: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '****';
  const shown = url.toString();
  return [
    'DATABASE_URL is set: this database is a PostgreSQL server, which npm run backup does not copy.',
    'Back it up with PostgreSQL’s own tools (consistent while the app writes):',
    '',
    `  pg_dump --format=custom --file=scaffale-$(date -u +%Y%m%dT%H%M%SZ).dump '${shown}'`,
    '',
    'and restore into an empty database with:',
    '',
    `  createdb scaffale_restored && pg_restore --no-owner --dbname=postgres://…/scaffale_restored scaffale-<time>.dump`,
    '',
    'For point-in-time recovery use continuous archiving (pgBackRest, WAL-G or your provider’s backups).',
    bucket
      ? `Uploads live in the bucket ${bucket}: turn on versioning (old versions of replaced or deleted files stay restorable)\n` +
        `  mc version enable scaffale/${bucket}        # MinIO\n` +
        `  aws s3api put-bucket-versioning --bucket ${bucket} --versioning-configuration Status=Enabled\n` +
        `and copy it elsewhere regularly: mc mirror scaffale/${bucket} /backups/uploads  (or aws s3 sync s3://${bucket} /backups/uploads)`
      : 'Uploads are on this machine’s disk (STORAGE=local): copy DATA_DIR/uploads too, e.g. rsync -a DATA_DIR/uploads/ /backups/uploads/',
    'See docs/operations.md#backups-and-restore.',
  ].join('\n');
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

async function main(args: string[], env = process.env): Promise<Result & { folder?: string }> {
  // Not the real secret: this command signs nothing, and must not write one into DATA_DIR.
  const config = loadConfig({ ...env, AUTH_SECRET: env.AUTH_SECRET ?? 'backup' });
  const storage = config.storage.kind;
  if (config.databaseUrl)
    return {
      ok: false,
      output: postgresAdvice(
        config.databaseUrl,
        config.storage.kind === 's3' ? config.storage.bucket : undefined,
      ),
    };
  const outAt = args.indexOf('--out');
  const parent = resolve(outAt >= 0 && args[outAt + 1] ? args[outAt + 1] : 'backups');
  if (isInside(parent, config.dataDir))
    return {
      ok: false,
      output: `Write backups outside DATA_DIR (${config.dataDir}), not in ${parent}.`,
    };
  if (!existsSync(join(config.dataDir, 'pglite', 'PG_VERSION')))
    return { ok: false, output: `There is no embedded database in ${config.dataDir} to back up.` };
  const createdAt = new Date();
  const folder = join(parent, `scaffale-backup-${stamp(createdAt)}`);
  const stage = `${folder}.partial`;
  await mkdir(parent, { recursive: true });
  try {
    let how: string;
    let database;
    try {
      database = await openPglite(join(config.dataDir, 'pglite'));
    } catch (err) {
      // The folder is locked: a server holds it. It takes the snapshot itself.
      const socket = controlSocketPath(config.dataDir);
      if (!existsSync(socket)) throw err;
      const answer = await askControlSocket(socket, ['backup', stage]);
      if (!answer.ok) throw new Error(answer.output, { cause: err });
      how = `through the running server, which held its writes for ${answer.output.replace('held ', '')}`;
    }
    if (database) {
      try {
        await writeSnapshot(database.pglite!, config.dataDir, stage, {
          uploads: storage === 'local',
        });
        how = 'from the stopped database';
      } finally {
        await database.close();
      }
    }
    const manifest = await writeManifest(stage, storage, createdAt);
    await rename(stage, folder);
    const tables = Object.values(manifest.database.rows).reduce((a, b) => a + b, 0);
    return {
      ok: true,
      folder,
      output:
        `backup written to ${folder} (${how!})\n` +
        `  database: ${(manifest.database.bytes / 1e6).toFixed(1)} MB, ${tables} rows, schema ${manifest.database.lastMigration}\n` +
        (storage === 'local'
          ? `  uploads: ${manifest.uploads.files.length} files, ${(manifest.uploads.bytes / 1e6).toFixed(1)} MB`
          : '  uploads: in the S3 bucket, not copied (use the bucket’s versioning: docs/operations.md)') +
        `\nrestore with: npm run restore -- ${folder}`,
    };
  } catch (err) {
    await rm(stage, { recursive: true, force: true });
    return { ok: false, output: `backup failed: ${(err as Error).message}` };
  }
}

const result = await main(process.argv.slice(2)).catch((err: Error): Result => ({
  ok: false,
  output: err.message,
}));
(result.ok ? console.log : console.error)(result.output);
// 2: nothing to copy here (PostgreSQL), as opposed to a failed copy (1).
process.exit(result.ok ? 0 : result.output.startsWith('DATABASE_URL is set') ? 2 : 1);
