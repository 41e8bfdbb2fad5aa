import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createMember, type Member } from '../test/members';
import { uploadImage } from '../test/uploads';
import { startTestS3, type TestS3 } from '../test/s3';
import { createS3Client } from './storage-s3';

/**
 * The app configured with STORAGE=s3 (no storage handed in): members' uploads go to the bucket,
 * are served by the app, and replacing or deleting them deletes them in the bucket; the app's
 * own disk holds none of them.
 */
let s3: TestS3;
let t: TestApp;
let alice: Member;
const dataDir = `/tmp/scaffale-s3-app-${process.pid}`;
beforeAll(async () => {
  s3 = await startTestS3('app-test');
  t = await createTestApp({ config: { dataDir, storage: { kind: 's3', ...s3.settings } } });
  alice = await createMember(t);
});
afterAll(async () => {
  await t?.app.close();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const client = () => createS3Client(s3.settings);
const inBucket = async (url: string) => {
  try {
    await client().send(
      new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: url.slice('/uploads/'.length) }),
    );
    return true;
  } catch {
    return false;
  }
};

function avatarForm(png: Buffer) {
  const boundary = '----scaffale' + Math.random().toString(16).slice(2);
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}
const png = (background: string) =>
  sharp({ create: { width: 120, height: 80, channels: 3, background } })
    .png()
    .toBuffer();

describe('uploads with STORAGE=s3', () => {
  it('stores an avatar in the bucket, serves it, and deletes the replaced one there', async () => {
    const upload = async (colour: string) => {
      const form = avatarForm(await png(colour));
      const res = await t.inject({
        method: 'POST',
        url: '/api/me/avatar',
        payload: form.payload,
        headers: { ...form.headers, cookie: alice.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().avatarUrl as string;
    };
    const first = await upload('#aa3300');
    expect(first).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/);
    expect(await inBucket(first)).toBe(true);
    const served = await t.inject({ method: 'GET', url: first });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=3600');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(120);

    const second = await upload('#0033aa');
    expect(second).not.toBe(first);
    expect(await inBucket(second)).toBe(true);
    expect(await inBucket(first)).toBe(false);
    expect((await t.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: second })).statusCode).toBe(200);
  });

  it('deleting the account deletes its covers folder in the bucket, not another member’s', async () => {
    const bob = await createMember(t);
    const zoe = await createMember(t);
    const bobs = [await uploadImage(t, bob), await uploadImage(t, bob, '#112233')];
    const zoes = await uploadImage(t, zoe);
    for (const url of [...bobs, zoes]) expect(await inBucket(url)).toBe(true);
    // A width made from it lives in the bucket too, and goes with it.
    expect((await t.inject({ method: 'GET', url: `${bobs[0]}?w=160` })).statusCode).toBe(200);
    const res = await t.inject({
      method: 'POST',
      url: '/api/me/delete',
      headers: { cookie: bob.cookie },
      payload: { password: bob.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    const keys = (
      (await client().send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }))).Contents ?? []
    ).map((o) => o.Key!);
    expect(keys.filter((k) => k.includes(`covers/${bob.id}/`))).toEqual([]);
    expect(await inBucket(zoes)).toBe(true);
  });

  it('writes no upload on the app’s own disk', () => {
    const local = join(dataDir, 'uploads');
    expect(existsSync(local) ? readdirSync(local) : []).toEqual([]);
  });
});

describe('with S3_PUBLIC_URL', () => {
  it('lets pages show images from the public address (Content-Security-Policy img-src)', async () => {
    const cdn = await createTestApp({
      config: {
        dataDir,
        storage: { kind: 's3', ...s3.settings, publicUrl: 'https://cdn.example.org/scaffale' },
      },
    });
    const res = await cdn.inject({ method: 'GET', url: '/api/health' });
    const imgSrc = /img-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(imgSrc?.split(' ')).toContain('https://cdn.example.org');
    const local = await t.inject({ method: 'GET', url: '/api/health' });
    expect(String(local.headers['content-security-policy'])).not.toContain('cdn.example.org');
  });
});

describe('when the bucket does not answer', () => {
  let down: TestS3;
  let app: TestApp;
  let member: Member;
  let avatar: string;
  beforeAll(async () => {
    down = await startTestS3('stopped-bucket');
    app = await createTestApp({ config: { dataDir, storage: { kind: 's3', ...down.settings } } });
    member = await createMember(app);
    const form = avatarForm(await png('#335577'));
    const res = await app.inject({
      method: 'POST',
      url: '/api/me/avatar',
      payload: form.payload,
      headers: { ...form.headers, cookie: member.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    avatar = res.json().avatarUrl;
    // The store goes away: connections to its port are refused from now on.
    await down.server.close();
  });
  afterAll(async () => {
    await app?.app.close();
    await down?.close().catch(() => {});
  });

  const uploads = async () =>
    (await app.database.query<{ n: number }>('select count(*)::int as n from uploads'))[0].n;

  it('answers an avatar upload 503 with a translated message, and changes nothing', async () => {
    const before = await uploads();
    const form = avatarForm(await png('#aa0000'));
    for (const [lang, message] of [
      ['en', 'The image store is not answering right now. Please try again in a few minutes.'],
      [
        'it',
        'Il deposito delle immagini non risponde in questo momento. Riprova tra qualche minuto.',
      ],
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/me/avatar',
        payload: form.payload,
        headers: { ...form.headers, cookie: member.cookie, 'accept-language': lang },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'storage_unavailable', message } });
    }
    const me = await app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: member.cookie },
    });
    expect(me.json().avatarUrl).toBe(avatar);
    expect(await uploads()).toBe(before);
  });

  it('answers a cover upload 503 and records no upload', async () => {
    const before = await uploads();
    await expect(uploadImage(app, member)).rejects.toThrow(
      /upload failed: 503 .*storage_unavailable/,
    );
    expect(await uploads()).toBe(before);
  });

  it('answers 503, not 500, when an image cannot be read from it', async () => {
    const res = await app.inject({
      method: 'GET',
      url: avatar,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('storage_unavailable');
    expect((await app.inject({ method: 'GET', url: `${avatar}?w=160` })).statusCode).toBe(503);
  });

  it('documents the 503 of both upload routes in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const [path, method] of [
      ['/api/me/avatar', 'post'],
      ['/api/uploads/cover', 'post'],
    ]) {
      expect(Object.keys(doc.paths[path][method].responses)).toEqual(
        expect.arrayContaining(['400', '401', '413', '429', '503']),
      );
    }
  });
});
