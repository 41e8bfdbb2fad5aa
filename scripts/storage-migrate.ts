/**
 * npm run storage:migrate [-- --from DIR] [--concurrency N]
 *
 * Copies the uploads kept on local disk (DATA_DIR/uploads, or --from) into the S3 bucket that
 * STORAGE=s3 and the S3_* variables name, under the same keys, so the URLs in the database
 * ('/uploads/<key>') keep working once the server runs with STORAGE=s3.
 *
 * Idempotent and resumable: the bucket is listed first, and a file already there with the same
 * size and content hash (ETag) is skipped; an interrupted run is simply run again. Each S3 PUT
 * is all or nothing, so a file cut off mid-copy is not in the bucket and is copied next time.
 * Made widths (.sized) are not copied: the bucket makes its own on first request.
 */
import 'dotenv/config';
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { parseEnv, storageConfigOf } from '../src/server/config';
import { isKey } from '../src/server/platform/storage';
import {
  UPLOAD_CACHE_CONTROL,
  VARIANTS_PREFIX,
  createS3Client,
  listKeys,
} from '../src/server/platform/storage-s3';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** Upload keys under `dir`, sorted (the order a resumed run walks again). */
async function localKeys(dir: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(dir, prefix), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !prefix) return [];
    throw err;
  }
  const keys: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    // Dot entries are the made widths and temporary files of interrupted writes.
    if (entry.name.startsWith('.')) continue;
    const key = `${prefix}${entry.name}`;
    if (entry.isDirectory()) keys.push(...(await localKeys(dir, `${key}/`)));
    else if (entry.isFile() && isKey(key)) keys.push(key);
  }
  return keys;
}

async function main(): Promise<number> {
  const env = parseEnv(process.env);
  const storage = storageConfigOf(env);
  if (storage.kind !== 's3') {
    console.error(
      'storage:migrate: set STORAGE=s3 and S3_BUCKET (with S3_ENDPOINT, S3_REGION, the keys...) ' +
        'as the server will run with them; see docs/operations.md',
    );
    return 2;
  }
  const from = resolve(option('from') ?? join(env.DATA_DIR, 'uploads'));
  const concurrency = Math.max(1, Math.min(32, Number(option('concurrency') ?? 4) || 4));
  const client = createS3Client(storage);
  const bucket = storage.bucket;

  const keys = await localKeys(from);
  console.log(`storage:migrate: ${keys.length} uploads in ${from} → s3://${storage.bucket}`);
  const inBucket = new Map<string, { size: number; etag?: string }>();
  for await (const page of listKeys(client, storage.bucket, '')) {
    for (const o of page) if (!o.key.startsWith(`${VARIANTS_PREFIX}/`)) inBucket.set(o.key, o);
  }

  let done = 0;
  let copied = 0;
  let skipped = 0;
  let failed = 0;
  const width = String(keys.length).length;
  const progress = (what: string, key: string) =>
    console.log(`[${String(done).padStart(width)}/${keys.length}] ${what} ${key}`);

  async function copy(key: string) {
    const path = join(from, ...key.split('/'));
    const there = inBucket.get(key);
    const { size } = await stat(path);
    if (there && there.size === size) {
      const body = await readFile(path);
      const md5 = createHash('md5').update(body).digest('hex');
      // A single-part upload's ETag is its MD5 (AWS, MinIO, Garage, R2); others compare by size.
      if (!there.etag || !/^[a-f0-9]{32}$/.test(there.etag) || there.etag === md5) {
        skipped++;
        done++;
        return;
      }
    }
    const body = await readFile(path);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: 'image/webp',
        CacheControl: UPLOAD_CACHE_CONTROL,
      }),
    );
    copied++;
    done++;
    progress('copied', key);
  }

  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < keys.length) {
        const key = keys[next++];
        try {
          await copy(key);
        } catch (err) {
          failed++;
          done++;
          progress(`FAILED (${(err as Error).message})`, key);
        }
      }
    }),
  );
  console.log(
    `storage:migrate: done: ${copied} copied, ${skipped} already in the bucket, ${failed} failed`,
  );
  if (failed) console.log('storage:migrate: run it again to retry the failed ones');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`storage:migrate: ${(err as Error).message}`);
    process.exit(1);
  },
);
