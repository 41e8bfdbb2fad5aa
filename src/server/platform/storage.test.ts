import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { COVER_WIDTHS } from '@shared/cover';
import { createStorage } from './storage';
import { AppError, registerErrorHandling } from './errors';

const root = mkdtempSync(join(tmpdir(), 'scaffale-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const storage = createStorage({ rootDir: join(root, 'uploads') });
const MB = 1024 * 1024;
const limits = { maxBytes: 5 * MB, maxWidth: 512, maxHeight: 512 };

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

const fileOf = (url: string) => join(root, url);

async function expectAppError(promise: Promise<unknown>, status: number, message: string) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).statusCode).toBe(status);
  expect((err as AppError).message).toBe(message);
}

describe('storage.saveImage', () => {
  it('re-encodes a PNG to WebP under the folder and returns its public URL', async () => {
    const png = await solid(300, 200).png().toBuffer();
    const saved = await storage.saveImage({ folder: 'avatars', buffer: png, ...limits });
    expect(saved.url).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/);
    expect(saved).toMatchObject({ width: 300, height: 200 });
    const stored = readFileSync(fileOf(saved.url));
    expect(stored.length).toBe(saved.bytes);
    expect((await sharp(stored).metadata()).format).toBe('webp');
    // No temporary files are left beside it.
    expect(readdirSync(join(root, 'uploads/avatars')).filter((f) => f.endsWith('.tmp'))).toEqual(
      [],
    );
  });

  it('applies the EXIF orientation, then strips EXIF and GPS data', async () => {
    const jpeg = await solid(400, 200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Artist: 'Secret Photographer', Make: 'PhoneCo' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '45/1 28/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '9/1 11/1 0/1',
        },
      })
      .toBuffer();
    const source = await sharp(jpeg).metadata();
    expect(source.exif).toBeDefined();
    expect(source.orientation).toBe(6);
    expect(jpeg.toString('latin1')).toContain('Secret Photographer');

    const saved = await storage.saveImage({ folder: 'covers/user_1', buffer: jpeg, ...limits });
    expect(saved.url).toMatch(/^\/uploads\/covers\/user_1\/[a-f0-9]{32}\.webp$/);
    const stored = readFileSync(fileOf(saved.url));
    const meta = await sharp(stored).metadata();
    // Rotated upright: the 400x200 landscape pixels, turned by orientation 6, become portrait.
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    const text = stored.toString('latin1');
    expect(text).not.toContain('Secret Photographer');
    expect(text).not.toContain('PhoneCo');
    expect(text).not.toContain('EXIF');
  });

  it('scales large images down to fit, never up', async () => {
    const big = await solid(3000, 1000).jpeg().toBuffer();
    const saved = await storage.saveImage({ folder: 'avatars', buffer: big, ...limits });
    expect(saved).toMatchObject({ width: 512, height: 171 });
    const small = await solid(40, 30).png().toBuffer();
    expect(await storage.saveImage({ folder: 'avatars', buffer: small, ...limits })).toMatchObject({
      width: 40,
      height: 30,
    });
  });

  it('accepts WebP, GIF and AVIF by content', async () => {
    for (const buffer of [
      await solid(64, 64).webp().toBuffer(),
      await solid(64, 64).gif().toBuffer(),
      await solid(64, 64).avif().toBuffer(),
    ]) {
      const saved = await storage.saveImage({ folder: 'avatars', buffer, ...limits });
      expect(saved.url).toMatch(/\.webp$/);
    }
  });

  it('refuses content that is not an accepted image with 400 invalidFileType', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const tiff = await solid(16, 16).tiff().toBuffer();
    const jpeg = await solid(200, 200).jpeg().toBuffer();
    for (const buffer of [
      Buffer.from('just some text, named avatar.png'),
      Buffer.alloc(0),
      svg,
      tiff,
      jpeg.subarray(0, 200), // truncated
    ]) {
      await expectAppError(
        storage.saveImage({ folder: 'avatars', buffer, ...limits }),
        400,
        'profile.errors.invalidFileType',
      );
    }
  });

  it('refuses files over maxBytes with 413 fileTooLarge', async () => {
    const png = await solid(100, 100).png().toBuffer();
    await expectAppError(
      storage.saveImage({ folder: 'avatars', buffer: png, ...limits, maxBytes: png.length - 1 }),
      413,
      'profile.errors.fileTooLarge',
    );
    // Exactly at the limit is fine.
    await storage.saveImage({ folder: 'avatars', buffer: png, ...limits, maxBytes: png.length });
  });

  it('refuses images of gigantic dimensions before decoding them', async () => {
    // A real PNG whose header claims 20000×20000 (1.6 GB decoded): refused from the header alone.
    const bomb = await solid(1, 1).png().toBuffer();
    bomb.writeUInt32BE(20000, 16);
    bomb.writeUInt32BE(20000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20000);
    expect(bomb.length).toBeLessThan(limits.maxBytes);
    await expectAppError(
      storage.saveImage({ folder: 'avatars', buffer: bomb, ...limits }),
      413,
      'profile.errors.imageTooLarge',
    );
  });

  it('rejects folders that could escape the storage root', async () => {
    const png = await solid(10, 10).png().toBuffer();
    for (const folder of [
      '../etc',
      'avatars/..',
      '/abs',
      'a//b',
      '',
      'a/b/c/d/e',
      'av\\x',
      '.hidden',
    ]) {
      await expect(storage.saveImage({ folder, buffer: png, ...limits })).rejects.toThrow(
        /invalid storage folder/,
      );
    }
    expect(existsSync(join(root, 'etc'))).toBe(false);
  });
});

describe('storage.delete', () => {
  it('removes a stored file and ignores URLs it did not hand out', async () => {
    const png = await solid(10, 10).png().toBuffer();
    const { url } = await storage.saveImage({ folder: 'avatars', buffer: png, ...limits });
    expect(existsSync(fileOf(url))).toBe(true);
    expect(await storage.delete(url)).toBe(true);
    expect(existsSync(fileOf(url))).toBe(false);
    expect(await storage.delete(url)).toBe(false);

    const outside = join(root, 'keep.webp');
    writeFileSync(outside, 'keep');
    for (const foreign of [
      '/uploads/../keep.webp',
      '/uploads/avatars/../../keep.webp',
      'https://example.com/uploads/avatars/0123456789abcdef0123456789abcdef.webp',
      '/uploads/avatars/notours.webp',
      '',
    ]) {
      expect(await storage.delete(foreign)).toBe(false);
    }
    expect(existsSync(outside)).toBe(true);
  });
});

describe('serving /uploads', async () => {
  const app = Fastify();
  registerErrorHandling(app);
  await storage.register(app);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send('the single-page app'));
  await app.ready();
  afterAll(() => app.close());

  it('serves stored files with a one-hour public cache and nosniff', async () => {
    const png = await solid(20, 20).png().toBuffer();
    const { url, bytes } = await storage.saveImage({ folder: 'avatars', buffer: png, ...limits });
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.length).toBe(bytes);
  });

  it('serves an upload at each cover width as WebP, resized once and cached immutable', async () => {
    const png = await solid(1200, 1800).png().toBuffer();
    const { url } = await storage.saveImage({
      folder: 'covers/u1',
      buffer: png,
      maxBytes: 5 * MB,
      maxWidth: 1200,
      maxHeight: 1800,
    });
    for (const w of COVER_WIDTHS) {
      const res = await app.inject({ method: 'GET', url: `${url}?w=${w}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: w, height: w * 1.5 });
    }
    const key = url.slice('/uploads/'.length);
    const variant = join(root, 'uploads', '.sized', '320', key);
    expect(existsSync(variant)).toBe(true);
    // Made once: later answers are the copy on disk.
    const first = await app.inject({ method: 'GET', url: `${url}?w=320` });
    expect(first.rawPayload.equals(readFileSync(variant))).toBe(true);
    // A small image is never enlarged.
    const small = await storage.saveImage({
      folder: 'covers/u1',
      buffer: await solid(100, 150).png().toBuffer(),
      ...limits,
    });
    const notEnlarged = await app.inject({ method: 'GET', url: `${small.url}?w=640` });
    expect((await sharp(notEnlarged.rawPayload).metadata()).width).toBe(100);
    // The variants go with the original.
    expect(await storage.delete(url)).toBe(true);
    expect(existsSync(variant)).toBe(false);
    expect((await app.inject({ method: 'GET', url: `${url}?w=320` })).statusCode).toBe(404);
  });

  it('refuses widths that are not cover widths (400) and unknown files (404)', async () => {
    const { url } = await storage.saveImage({
      folder: 'covers/u2',
      buffer: await solid(400, 600).png().toBuffer(),
      ...limits,
    });
    for (const w of ['100', '', 'abc', '320px', '1e3', '-320']) {
      const res = await app.inject({
        method: 'GET',
        url: `${url}?w=${w}`,
        headers: { 'accept-language': 'it' },
      });
      expect(res.statusCode, w).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        fields: { w: 'Larghezza non disponibile: scegli 160, 320, 480 o 640.' },
      });
    }
    for (const missing of [
      '/uploads/covers/u2/0123456789abcdef0123456789abcdef.webp?w=160',
      '/uploads/covers/u2/notakey.webp?w=160',
      '/uploads/%2e%2e/secret.txt?w=160',
      '/uploads/.sized/160/covers/u2/0123456789abcdef0123456789abcdef.webp',
    ]) {
      const res = await app.inject({ method: 'GET', url: missing });
      expect([403, 404], missing).toContain(res.statusCode);
      expect(res.headers['content-type'], missing).not.toBe('image/webp');
    }
  });

  it('answers 404 in the error format for missing files and traversal attempts', async () => {
    writeFileSync(join(root, 'secret.txt'), 'secret');
    for (const url of [
      '/uploads/avatars/missing.webp',
      '/uploads/../secret.txt',
      '/uploads/%2e%2e/secret.txt',
      '/uploads/avatars/%2e%2e/%2e%2e/secret.txt',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('secret');
    }
    const missing = await app.inject({
      method: 'GET',
      url: '/uploads/avatars/missing.webp',
      headers: { 'accept-language': 'en' },
    });
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });
});
