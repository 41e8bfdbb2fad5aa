import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { t, seller, other, full, req, create, useFixture } from './routes.fixture';

useFixture();

describe('POST /api/uploads/cover', () => {
  function multipart(buffer: Buffer, filename = 'cover.png', type = 'image/png') {
    const boundary = '----scaffale' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      buffer,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const png = () =>
    sharp({ create: { width: 40, height: 60, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();

  it('stores an image for a signed-in member and the listing keeps it as its cover', async () => {
    const body = multipart(await png());
    const anon = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...body.headers, 'accept-language': 'en' },
      payload: body.payload,
    });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.message).toBe(
      'Authentication required for upload. Please log in again.',
    );

    const res = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...body.headers, cookie: seller.cookie },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(new RegExp(`^/uploads/covers/${seller.id}/[a-f0-9]{32}\\.webp$`));
    const served = await t.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);

    const listing = await create(seller, { ...full, coverUrl: url });
    expect(listing.coverUrl).toBe(url);
    expect(listing.images).toEqual([url]);
    // Another member cannot claim this file as their cover.
    const stolen = await create(other, { ...full, coverUrl: url });
    expect(stolen.coverUrl).toBeNull();
    // Deleting the listing deletes the file.
    await req('DELETE', `/api/listings/${listing.id}`, seller);
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('refuses what is not an image and files over 5 MB', async () => {
    const text = multipart(Buffer.from('just text, not an image'), 'cover.png');
    const notImage = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...text.headers, cookie: seller.cookie, 'accept-language': 'en' },
      payload: text.payload,
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().error.message).toBe('Please upload an image file');

    const big = multipart(Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    const tooLarge = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...big.headers, cookie: seller.cookie, 'accept-language': 'en' },
      payload: big.payload,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.message).toBe('File size must be less than 5MB');
  });
});
