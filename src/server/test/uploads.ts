import sharp from 'sharp';
import type { TestApp } from './app';
import type { Member } from './members';

/** An image `who` uploaded through the cover pipeline (POST /api/uploads/cover): its URL. */
export async function uploadImage(
  t: TestApp,
  who: Member,
  background = '#336699',
): Promise<string> {
  const png = await sharp({ create: { width: 40, height: 60, channels: 3, background } })
    .png()
    .toBuffer();
  const boundary = '----scaffale' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.inject({
    method: 'POST',
    url: '/api/uploads/cover',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: who.cookie },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().url as string;
}
