import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { users } from '../../db/schema';
import { createStorage } from '../../platform/storage';
import { createTestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
export const uploads = mkdtempSync(join(tmpdir(), 'scaffale-profiles-'));

export const en = { 'accept-language': 'en' };
export const it_ = { 'accept-language': 'it' };

export function multipart(field: string, filename: string, contentType: string, content: Buffer) {
  const boundary = `----scaffale${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const png = (width = 120, height = 80) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();

/** The app, two members and request helpers that every profiles test file shares. */
export async function profilesApi() {
  const testApp = await createTestApp({
    deps: { storage: createStorage({ rootDir: uploads }) },
  });
  const { inject, database } = testApp;
  const row = async (id: string) =>
    (await database.db.select().from(users).where(eq(users.id, id)))[0];

  const alice = await createMember(testApp, { email: 'Alice.Rossi@Example.com' });
  const bob = await createMember(testApp);

  const upload = (member: Member | undefined, body: ReturnType<typeof multipart>, lang = en) =>
    inject({
      method: 'POST',
      url: '/api/me/avatar',
      payload: body.payload,
      headers: { ...body.headers, ...lang, ...(member ? { cookie: member.cookie } : {}) },
    });
  const patch = (member: Member | undefined, payload: object, lang = en) =>
    inject({
      method: 'PATCH',
      url: '/api/me',
      payload,
      headers: { ...lang, ...(member ? { cookie: member.cookie } : {}) },
    });
  return { testApp, inject, database, row, alice, bob, upload, patch };
}

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(() => mkdirSync(uploads, { recursive: true }));
  afterAll(() => rmSync(uploads, { recursive: true, force: true }));
}
