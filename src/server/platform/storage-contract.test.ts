import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COVER_WIDTHS } from '@shared/cover';
import { registerErrorHandling } from './errors';
import { createStorage, type Storage } from './storage';
import { bucketProblem, createS3BlobStore } from './storage-s3';
import { startTestS3, type TestS3 } from '../test/s3';

/**
 * The one behaviour every backend owes the app: the same URLs, headers, widths, deletion and
 * replacement, on local disk and in an S3 bucket (a real S3-protocol server on a free port).
 */
const MB = 1024 * 1024;
const limits = { maxBytes: 5 * MB, maxWidth: 1200, maxHeight: 1800 };
const solid = (width: number, height: number, r = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 40, b: 90 } } })
    .png()
    .toBuffer();

interface Backend {
  storage: Storage;
  /** Whether the bytes behind `key` are kept by this backend. */
  holds(key: string): Promise<boolean>;
  /** Every key the backend keeps (variants included). */
  keys(): Promise<string[]>;
  /** The local disk folder the app would otherwise write to: must stay empty for S3. */
  disk: string;
}

let s3: TestS3;
const root = mkdtempSync(join(tmpdir(), 'scaffale-contract-'));
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

const walk = (dir: string, prefix = ''): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
      )
    : [];

const backends: Record<string, () => Backend> = {
  local() {
    const disk = join(root, 'local');
    return {
      disk,
      storage: createStorage({ rootDir: disk }),
      holds: async (key) => existsSync(join(disk, key)),
      keys: async () => walk(disk),
    };
  },
  s3() {
    const disk = join(root, 's3-disk');
    const blobs = createS3BlobStore(s3.settings);
    const client: S3Client = blobs.client;
    return {
      disk,
      storage: createStorage({ blobs }),
      async holds(key) {
        try {
          await client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: key }));
          return true;
        } catch {
          return false;
        }
      },
      async keys() {
        const res = await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
        return (res.Contents ?? []).map((o) => o.Key!);
      },
    };
  },
};

describe.each(Object.keys(backends))('the %s BlobStore', (name) => {
  let backend: Backend;
  let app: FastifyInstance;
  const keyOf = (url: string) => url.slice('/uploads/'.length);
  beforeAll(async () => {
    backend = backends[name]();
    app = Fastify();
    registerErrorHandling(app);
    await backend.storage.register(app);
    app.setNotFoundHandler((_request, reply) => reply.status(404).send('the single-page app'));
    await app.ready();
  });
  afterAll(() => app?.close());

  it('keeps a saved image under its key and serves it with the one-hour cache', async () => {
    const saved = await backend.storage.saveImage({
      folder: 'avatars',
      buffer: await solid(300, 200),
      ...limits,
    });
    expect(saved.url).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/);
    expect(await backend.holds(keyOf(saved.url))).toBe(true);
    const res = await app.inject({ method: 'GET', url: saved.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.length).toBe(saved.bytes);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(300);
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['last-modified']).toBeTruthy();

    // A browser revalidating what it has gets a 304 without the bytes.
    const again = await app.inject({
      method: 'GET',
      url: saved.url,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe('public, max-age=3600');
    // A changed file (another ETag) is sent again.
    const other = await app.inject({
      method: 'GET',
      url: saved.url,
      headers: { 'if-none-match': '"0123"' },
    });
    expect(other.statusCode).toBe(200);

    const head = await app.inject({ method: 'HEAD', url: saved.url });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(saved.bytes);
    expect(head.rawPayload.length).toBe(0);

    const range = await app.inject({
      method: 'GET',
      url: saved.url,
      headers: { range: 'bytes=0-9' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(res.rawPayload.subarray(0, 10))).toBe(true);
    const beyond = await app.inject({
      method: 'GET',
      url: saved.url,
      headers: { range: `bytes=${saved.bytes + 100}-` },
    });
    expect(beyond.statusCode).toBe(416);
    // Headers a browser never sends well are ignored, not a server error.
    for (const headers of [
      { range: 'bytes=abc' },
      { 'if-modified-since': 'not a date' },
      { 'if-none-match': '\u0000' },
    ]) {
      const odd = await app.inject({ method: 'GET', url: saved.url, headers });
      expect(
        [200, 206, 416],
        `${name} ${JSON.stringify(headers)} ${odd.body.slice(0, 200)}`,
      ).toContain(odd.statusCode);
    }
  });

  it('serves each cover width, made once, and deletes the widths with the original', async () => {
    const { url } = await backend.storage.saveImage({
      folder: 'covers/u1',
      buffer: await solid(1200, 1800),
      ...limits,
    });
    for (const w of COVER_WIDTHS) {
      const res = await app.inject({ method: 'GET', url: `${url}?w=${w}` });
      expect(res.statusCode, String(w)).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: w, height: w * 1.5 });
    }
    const variants = (await backend.keys()).filter(
      (k) => k.startsWith('.sized/') && k.endsWith(keyOf(url)),
    );
    expect(variants).toHaveLength(COVER_WIDTHS.length);
    const bad = await app.inject({
      method: 'GET',
      url: `${url}?w=100`,
      headers: { 'accept-language': 'en' },
    });
    expect(bad.statusCode).toBe(400);

    expect(await backend.storage.delete(url)).toBe(true);
    expect(await backend.holds(keyOf(url))).toBe(false);
    expect((await backend.keys()).filter((k) => k.endsWith(keyOf(url)))).toEqual([]);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `${url}?w=320` })).statusCode).toBe(404);
    // Deleting again tells it was not there.
    expect(await backend.storage.delete(url)).toBe(false);
  });

  it('replaces an image: the new one is served, the old one is gone', async () => {
    const first = await backend.storage.saveImage({
      folder: 'avatars',
      buffer: await solid(64, 64, 10),
      ...limits,
    });
    const second = await backend.storage.saveImage({
      folder: 'avatars',
      buffer: await solid(64, 64, 250),
      ...limits,
    });
    expect(second.url).not.toBe(first.url);
    expect(await backend.storage.delete(first.url)).toBe(true);
    expect((await app.inject({ method: 'GET', url: first.url })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: second.url })).statusCode).toBe(200);
  });

  it('deletes a whole folder, its widths too, and nothing beside it', async () => {
    const inside = await Promise.all(
      [1, 2, 3].map(async () =>
        backend.storage.saveImage({ folder: 'covers/u9', buffer: await solid(40, 60), ...limits }),
      ),
    );
    await app.inject({ method: 'GET', url: `${inside[0].url}?w=160` });
    const beside = await backend.storage.saveImage({
      folder: 'covers/u90',
      buffer: await solid(40, 60),
      ...limits,
    });
    await backend.storage.deleteFolder('covers/u9');
    for (const { url } of inside) expect(await backend.holds(keyOf(url))).toBe(false);
    expect((await backend.keys()).some((k) => k.includes('covers/u9/'))).toBe(false);
    expect(await backend.holds(keyOf(beside.url))).toBe(true);
    // An absent folder is fine.
    await backend.storage.deleteFolder('covers/nobody');
    await expect(backend.storage.deleteFolder('../etc')).rejects.toThrow(/invalid storage folder/);
  });

  it('ignores URLs it did not hand out and answers 404 for unknown and crafted paths', async () => {
    for (const foreign of [
      '/uploads/../keep.webp',
      '/uploads/avatars/../../keep.webp',
      'https://example.com/uploads/avatars/0123456789abcdef0123456789abcdef.webp',
      '/uploads/avatars/notours.webp',
      '/uploads/avatars/0123456789abcdef0123456789abcdef.webp\u0000',
      '',
    ]) {
      expect(await backend.storage.delete(foreign)).toBe(false);
    }
    for (const url of [
      '/uploads/avatars/missing.webp',
      '/uploads/avatars/0123456789abcdef0123456789abcdef.webp',
      '/uploads/../secret.txt',
      '/uploads/%2e%2e/secret.txt',
      '/uploads/.sized/160/covers/u1/0123456789abcdef0123456789abcdef.webp',
      '/uploads/avatars/0123456789abcdef0123456789abcdef.webp%00',
      `/uploads/avatars/${'a'.repeat(5000)}.webp`,
      `/uploads/${'x/'.repeat(300)}0123456789abcdef0123456789abcdef.webp`,
    ]) {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-language': 'en' },
      });
      expect([400, 403, 404], url).toContain(res.statusCode);
      expect(res.headers['content-type'], url).not.toBe('image/webp');
    }
    const missing = await app.inject({
      method: 'GET',
      url: '/uploads/avatars/0123456789abcdef0123456789abcdef.webp',
      headers: { 'accept-language': 'en' },
    });
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });

  it('survives races: widths asked at once are made once, deletes at once leave nothing', async () => {
    const { url } = await backend.storage.saveImage({
      folder: 'covers/race',
      buffer: await solid(800, 1200),
      ...limits,
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => app.inject({ method: 'GET', url: `${url}?w=480` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((r) => r.rawPayload.toString('base64'))).size).toBe(1);
    const deleted = await Promise.all([1, 2, 3].map(() => backend.storage.delete(url)));
    // Disk tells exactly one caller; a bucket cannot tell two deletes of the same key apart.
    if (name === 'local') expect(deleted.filter(Boolean)).toHaveLength(1);
    else expect(deleted.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(await backend.holds(keyOf(url))).toBe(false);
    expect((await backend.keys()).filter((k) => k.endsWith(keyOf(url)))).toEqual([]);
  });

  it('writes nothing on this machine’s disk when the files live in the bucket', async () => {
    if (name === 'local') expect(walk(backend.disk).length).toBeGreaterThan(0);
    else expect(walk(backend.disk)).toEqual([]);
  });
});

describe('the S3 bucket check at start', () => {
  it('answers null for a bucket that answers, and names the problem otherwise', async () => {
    expect(await bucketProblem(s3.settings)).toBeNull();
    expect(await bucketProblem({ ...s3.settings, bucket: 'no-such-bucket' })).toMatch(/404/);
    expect(
      await bucketProblem({ ...s3.settings, endpoint: 'http://127.0.0.1:1', bucket: 'x' }),
    ).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe('the S3 BlobStore with a public URL (the bucket or a CDN serves the files)', () => {
  let app: FastifyInstance;
  let storage: Storage;
  let publicUrl: string;
  beforeAll(async () => {
    // s3rver answers anonymous reads, like a public bucket: path-style, <endpoint>/<bucket>/<key>.
    publicUrl = `${s3.endpoint}/${s3.settings.bucket}`;
    storage = createStorage({ blobs: createS3BlobStore({ ...s3.settings, publicUrl }) });
    app = Fastify();
    registerErrorHandling(app);
    await storage.register(app);
    await app.ready();
  });
  afterAll(() => app?.close());

  it('keeps /uploads URLs and redirects them to the public address, widths included', async () => {
    const saved = await storage.saveImage({
      folder: 'covers/u7',
      buffer: await solid(640, 960),
      ...limits,
    });
    expect(saved.url).toMatch(/^\/uploads\/covers\/u7\/[a-f0-9]{32}\.webp$/);
    const res = await app.inject({ method: 'GET', url: saved.url });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${publicUrl}${saved.url.slice('/uploads'.length)}`);
    const direct = await fetch(res.headers.location!);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(Buffer.from(await direct.arrayBuffer()).length).toBe(saved.bytes);

    const sized = await app.inject({ method: 'GET', url: `${saved.url}?w=160` });
    expect(sized.statusCode).toBe(302);
    const variant = await fetch(sized.headers.location!);
    expect(variant.status).toBe(200);
    expect(variant.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await sharp(Buffer.from(await variant.arrayBuffer())).metadata()).width).toBe(160);

    expect(await storage.delete(saved.url)).toBe(true);
    expect((await fetch(res.headers.location!)).status).toBe(404);
    expect((await fetch(sized.headers.location!)).status).toBe(404);
  });
});
