import { spawn } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../src/server/platform/storage-s3';
import { startTestS3, type TestS3 } from '../src/server/test/s3';

/**
 * npm run storage:migrate, run as an operator runs it (a child process with the environment),
 * against a real S3-protocol server: killed midway, run again, and every upload ends in the
 * bucket, each written exactly once (the server reports every object it creates).
 */
const FILES = 240;
let s3: TestS3;
const dataDir = mkdtempSync(join(tmpdir(), 'scaffale-migrate-'));
const uploads = join(dataDir, 'uploads');
const files = new Map<string, Buffer>();
/** Objects the server created, by key, from the moment the first run starts. */
const created = new Map<string, number>();

beforeAll(async () => {
  s3 = await startTestS3('migrate-test');
  for (let i = 0; i < FILES; i++) {
    const folder = i % 3 === 0 ? 'avatars' : `covers/user_${i % 7}`;
    const key = `${folder}/${randomBytes(16).toString('hex')}.webp`;
    const body = randomBytes(2000 + i);
    mkdirSync(join(uploads, folder), { recursive: true });
    writeFileSync(join(uploads, key), body);
    files.set(key, body);
  }
  // Not uploads: a made width and a temporary file an interrupted write left.
  mkdirSync(join(uploads, '.sized/160/avatars'), { recursive: true });
  writeFileSync(join(uploads, '.sized/160/avatars', `${'a'.repeat(32)}.webp`), 'width');
  writeFileSync(join(uploads, 'avatars', '.0123abcd.tmp'), 'half');
  // s3rver is a Koa app: it emits an S3 event notification for every object it creates.
  (s3.server as unknown as EventEmitter).on(
    'event',
    (event: { Records: { s3: { object: { key: string } } }[] }) => {
      for (const record of event.Records) {
        const key = decodeURIComponent(record.s3.object.key);
        created.set(key, (created.get(key) ?? 0) + 1);
      }
    },
  );
});
afterAll(async () => {
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function run(opts: { killAfterCopies?: number } = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/storage-migrate.ts', '--concurrency', '2'],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        STORAGE: 's3',
        S3_BUCKET: s3.settings.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const copies = out.match(/ copied /g)?.length ?? 0;
    if (opts.killAfterCopies && copies >= opts.killAfterCopies) child.kill('SIGKILL');
  });
  return new Promise<{ code: number | null; signal: string | null; out: string; err: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, out, err })),
  );
}

const summary = (out: string) => {
  const m = out.match(/done: (\d+) copied, (\d+) already in the bucket, (\d+) failed/);
  return m ? { copied: +m[1], skipped: +m[2], failed: +m[3] } : null;
};

describe('npm run storage:migrate', () => {
  it('copies every upload once, with progress, resuming after being killed midway', async () => {
    // One upload is already in the bucket, the same bytes: never written again.
    const [firstKey, firstBody] = [...files][0];
    const client = createS3Client(s3.settings);
    await client.send(
      new PutObjectCommand({ Bucket: s3.settings.bucket, Key: firstKey, Body: firstBody }),
    );
    created.clear();

    const killed = await run({ killAfterCopies: 5 });
    expect(killed.signal, killed.err).toBe('SIGKILL');
    expect(killed.out).toContain(`storage:migrate: ${FILES} uploads in ${uploads}`);
    expect(killed.out).toMatch(new RegExp(`\\[\\s*\\d+/${FILES}\\] copied (avatars|covers)/`));
    expect(summary(killed.out)).toBeNull();
    const afterKill = created.size;
    expect(afterKill).toBeGreaterThanOrEqual(5);
    expect(afterKill).toBeLessThan(FILES - 1);

    const resumed = await run();
    expect(resumed.code, resumed.err).toBe(0);
    expect(summary(resumed.out)).toEqual({
      copied: FILES - 1 - afterKill,
      skipped: afterKill + 1,
      failed: 0,
    });

    // Every upload is in the bucket with its bytes, each created exactly once; nothing else is.
    expect(created.has(firstKey)).toBe(false);
    for (const key of [...files.keys()].slice(1)) expect(created.get(key), key).toBe(1);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([...files.keys()].sort());
    const sample = [...files][FILES - 1];
    const got = await client.send(
      new GetObjectCommand({ Bucket: s3.settings.bucket, Key: sample[0] }),
    );
    expect(got.ContentType).toBe('image/webp');
    expect(got.CacheControl).toBe('public, max-age=3600');
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    expect(createHash('md5').update(bytes).digest('hex')).toBe(
      createHash('md5').update(sample[1]).digest('hex'),
    );

    // Run again: nothing to do.
    const again = await run();
    expect(summary(again.out)).toEqual({ copied: 0, skipped: FILES, failed: 0 });
    expect([...created.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);

  it('refuses to run without STORAGE=s3, naming what to set', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/storage-migrate.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, STORAGE: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(err).toContain('set STORAGE=s3 and S3_BUCKET');
  }, 60_000);
});
