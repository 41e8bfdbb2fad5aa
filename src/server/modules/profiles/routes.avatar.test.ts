import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { uploads, en, it_, multipart, png, profilesApi, useFixture } from './routes.fixture';

useFixture();

describe('profiles API', async () => {
  const { inject, row, alice, bob, upload } = await profilesApi();

  describe('POST /api/me/avatar', () => {
    it('answers 401 "User not authenticated" without a session', async () => {
      const res = await upload(undefined, multipart('file', 'a.png', 'image/png', await png()));
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe('User not authenticated');
    });

    let firstAvatar = '';
    it('stores an uploaded PNG as WebP without metadata and serves it with a one-hour cache', async () => {
      const res = await upload(
        alice,
        multipart('file', 'me.png', 'image/png', await png(900, 600)),
      );
      expect(res.statusCode).toBe(200);
      const me = res.json();
      expect(me.id).toBe(alice.id);
      expect(me.avatarUrl).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/);
      firstAvatar = me.avatarUrl;

      const file = await inject({ method: 'GET', url: me.avatarUrl });
      expect(file.statusCode).toBe(200);
      expect(file.headers['cache-control']).toBe('public, max-age=3600');
      expect(file.headers['content-type']).toBe('image/webp');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(file.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 512, height: 341 });
      expect(meta.exif).toBeUndefined();

      const again = await inject({
        method: 'GET',
        url: '/api/me',
        headers: { cookie: alice.cookie },
      });
      expect(again.json().avatarUrl).toBe(me.avatarUrl);
      expect((await row(bob.id)).avatarUrl).toBeNull();
    });

    it('strips EXIF and GPS from a photo and replaces the previous avatar file', async () => {
      const photo = await sharp({
        create: { width: 300, height: 300, channels: 3, background: '#884422' },
      })
        .jpeg()
        .withExif({
          IFD0: { Artist: 'Alice Camera' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '45/1 28/1 0/1' },
        })
        .toBuffer();
      // The declared type and name do not matter; the content does.
      const res = await upload(
        alice,
        multipart('file', 'photo.bin', 'application/octet-stream', photo),
      );
      expect(res.statusCode).toBe(200);
      const url = res.json().avatarUrl;
      expect(url).not.toBe(firstAvatar);
      const file = await inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect((await sharp(file.rawPayload).metadata()).exif).toBeUndefined();
      expect(file.rawPayload.toString('latin1')).not.toContain('Alice Camera');
      // The replaced file is gone from disk and from the web.
      expect(existsSync(join(uploads, firstAvatar.replace('/uploads/', '')))).toBe(false);
      expect((await inject({ method: 'GET', url: firstAvatar })).statusCode).toBe(404);
    });

    it('refuses a text file named .png with 400 "Please upload an image file"', async () => {
      const before = (await row(alice.id)).avatarUrl;
      const text = Buffer.from('This is not a picture, whatever its name says.\n');
      const res = await upload(alice, multipart('file', 'avatar.png', 'image/png', text));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 'invalid_file_type', message: 'Please upload an image file' },
      });
      const itRes = await upload(alice, multipart('file', 'avatar.png', 'image/png', text), it_);
      expect(itRes.json().error.message).toBe('Carica un file immagine');
      expect((await row(alice.id)).avatarUrl).toBe(before);
    });

    it('refuses a 6 MB image with 413 "File size must be less than 5MB"', async () => {
      const before = (await row(alice.id)).avatarUrl;
      // Noise does not compress: an uncompressed-size PNG of about 6 MB.
      const width = 1450;
      const height = 1450;
      const big = await sharp(randomBytes(width * height * 3), {
        raw: { width, height, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(big.length).toBeGreaterThan(6 * 1024 * 1024);
      const res = await upload(alice, multipart('file', 'big.png', 'image/png', big));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        error: { code: 'payload_too_large', message: 'File size must be less than 5MB' },
      });
      const itRes = await upload(alice, multipart('file', 'big.png', 'image/png', big), it_);
      expect(itRes.statusCode).toBe(413);
      expect(itRes.json().error.message).toBe('Il file deve essere più piccolo di 5MB');
      expect((await row(alice.id)).avatarUrl).toBe(before);
    });

    it('refuses a request without a file part, or that is not multipart, with 400', async () => {
      const wrongField = await upload(
        alice,
        multipart('avatar', 'a.png', 'image/png', await png()),
      );
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json().error.message).toBe('Please upload an image file');
      const json = await inject({
        method: 'POST',
        url: '/api/me/avatar',
        payload: { file: 'data:image/png;base64,AAAA' },
        headers: { cookie: alice.cookie, ...en },
      });
      expect(json.statusCode).toBe(400);
      expect(json.json().error.message).toBe('Please upload an image file');
      const cut = multipart('file', 'a.png', 'image/png', await png());
      const truncated = await upload(alice, {
        headers: cut.headers,
        payload: cut.payload.subarray(0, cut.payload.length - 30),
      });
      expect(truncated.statusCode).toBeGreaterThanOrEqual(400);
      expect(truncated.statusCode).toBeLessThan(500);
    });

    it('changes only the uploader’s avatar', async () => {
      const aliceBefore = (await row(alice.id)).avatarUrl;
      const res = await upload(bob, multipart('file', 'b.png', 'image/png', await png(50, 50)));
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(bob.id);
      expect((await row(bob.id)).avatarUrl).toBe(res.json().avatarUrl);
      expect((await row(alice.id)).avatarUrl).toBe(aliceBefore);
    });
  });
});
