import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { uploadImage } from '../../test/uploads';
import { createListing, saleListing } from '../../test/listings';
import { requester, createMember, randomClientIp, type Member } from '../../test/members';
import { adsClient } from '../../test/ads';

/**
 * Attacks on members' files, data export and e-mails, made from outside through HTTP: a member's
 * record pointing at someone else's file, an image URL that makes browsers export, a sign-up with
 * someone else's address, an account whose name is in every e-mail.
 */
// Each test walks several members through many requests: slow on a loaded machine.
const SLOW = 60_000;
let t: TestApp;
let req: ReturnType<typeof requester>;

beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: mkdtempSync(join(tmpdir(), 'scaffale-priv-')) } });
  req = requester(t);
});

const served = async (url: string) => (await t.inject({ method: 'GET', url })).statusCode;
const deleteAccount = (who: Member) =>
  req('POST', '/api/me/delete', who, { password: who.password });

async function uploadAvatar(who: Member, background = '#884422'): Promise<string> {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background } })
    .png()
    .toBuffer();
  const boundary = '----scaffale' + Math.random().toString(16).slice(2);
  const res = await t.inject({
    method: 'POST',
    url: '/api/me/avatar',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: who.cookie },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().avatarUrl as string;
}

describe("a member's record pointing at another member's file", () => {
  it(
    'never has that file deleted: not by replacing, editing, deleting nor erasing',
    async () => {
      const ada = await createMember(t, { displayName: 'Ada Victim' });
      const bruno = await createMember(t, { displayName: 'Bruno Attacker' });
      const cover = await uploadImage(t, ada, '#aa2211');
      const adaListing = await createListing(t, ada, { coverUrl: cover });
      expect(await served(cover)).toBe(200);

      // Bruno's avatar, listing cover and ad image show Ada's file (as the closed better-auth
      // route and the old ad validation let them), then Bruno changes each of them.
      await t.database.query('update users set avatar_url = $2 where id = $1', [bruno.id, cover]);
      await uploadAvatar(bruno);
      expect(await served(cover)).toBe(200);

      const brunoListing = await createListing(t, bruno);
      await t.database.query('update book_listings set cover_url = $2 where id = $1', [
        brunoListing.id,
        cover,
      ]);
      const patched = await req('PATCH', `/api/listings/${brunoListing.id}`, bruno, {
        ...saleListing,
        coverUrl: '',
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect((await req('DELETE', `/api/listings/${brunoListing.id}`, bruno)).statusCode).toBe(204);
      expect(await served(cover)).toBe(200);

      const adId = await adsClient(t).createAd(bruno, { title: 'Il romanzo di Bruno' });
      await t.database.query(
        `update book_advertisements set cover_image_url = $2, promotional_images = array[$2]
       where id = $1`,
        [adId, cover],
      );
      expect((await req('DELETE', `/api/ads/${adId}`, bruno)).statusCode).toBe(204);
      expect(await served(cover)).toBe(200);

      // Nor when Bruno, still showing it as his avatar, deletes his account.
      await t.database.query('update users set avatar_url = $2 where id = $1', [bruno.id, cover]);
      expect((await deleteAccount(bruno)).statusCode).toBe(200);
      expect(await served(cover)).toBe(200);
      const listing = await req('GET', `/api/listings/${adaListing.id}`);
      expect(listing.json().coverUrl).toBe(cover);
    },
    SLOW,
  );

  it(
    "still deletes the owner's own replaced file once nothing shows it",
    async () => {
      const carlo = await createMember(t);
      const first = await uploadAvatar(carlo, '#112233');
      expect(await served(first)).toBe(200);
      const second = await uploadAvatar(carlo, '#332211');
      expect(await served(first)).toBe(404);
      expect(await served(second)).toBe(200);
    },
    SLOW,
  );
});

describe('deleting an account', () => {
  it(
    'deletes every file the member uploaded, wherever it is shown',
    async () => {
      const dora = await createMember(t, {
        displayName: 'Dora Leaving',
        password: 'dora-only-pw-9',
      });
      const ezio = await createMember(t, { displayName: 'Ezio Staying' });
      const avatar = await uploadAvatar(dora);
      const listed = await uploadImage(t, dora, '#225522');
      await createListing(t, dora, { coverUrl: listed });
      const unused = await uploadImage(t, dora, '#552222');
      const lent = await uploadImage(t, dora, '#222255');
      // Ezio's ad shows Dora's upload (an ad may name any uploaded image).
      const adId = await adsClient(t).createAd(ezio, { title: 'Il romanzo di Ezio' });
      await t.database.query(
        `update book_advertisements set cover_image_url = $2, promotional_images = array[$2]
       where id = $1`,
        [adId, lent],
      );
      const ezios = await uploadImage(t, ezio, '#555555');
      // An upload stored before uploads had a recorded owner, in Dora's cover folder.
      const legacyName = `${randomBytes(16).toString('hex')}.webp`;
      const folder = join(t.config.dataDir, 'uploads', 'covers', dora.id);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, legacyName),
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .webp()
          .toBuffer(),
      );
      const legacy = `/uploads/covers/${dora.id}/${legacyName}`;
      expect(await served(`${legacy}?w=160`)).toBe(200);
      for (const url of [avatar, listed, unused, lent, ezios, legacy])
        expect(await served(url)).toBe(200);

      // Another member cannot delete Dora's account nor her files.
      const wrong = await req('POST', '/api/me/delete', ezio, { password: dora.password });
      expect(wrong.statusCode).toBe(400);
      expect((await req('POST', '/api/me/delete', undefined, { password: 'x' })).statusCode).toBe(
        401,
      );
      for (const url of [avatar, listed, unused, lent]) expect(await served(url)).toBe(200);

      expect((await deleteAccount(dora)).statusCode).toBe(200);
      for (const url of [avatar, listed, unused, lent, legacy, `${legacy}?w=160`])
        expect(await served(url), url).toBe(404);
      expect(await served(ezios)).toBe(200);
      // Ezio's ad no longer points at a missing file.
      const [ad] = await t.database.query<{ cover: string | null; images: string[] }>(
        'select cover_image_url as cover, promotional_images as images from book_advertisements where id = $1',
        [adId],
      );
      expect(ad).toEqual({ cover: null, images: [] });
    },
    SLOW,
  );
});

describe('download my data', () => {
  it(
    'is not exported nor counted by an image or a link, only by a deliberate download',
    async () => {
      const fede = await createMember(t);
      const plain = { cookie: fede.cookie, 'accept-language': 'en' };
      const asImage = { ...plain, 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' };
      for (const headers of [asImage, plain]) {
        for (let i = 0; i < 5; i++) {
          const res = await t.inject({ method: 'GET', url: '/api/me/export', headers });
          expect(res.statusCode).toBe(405);
          expect(res.headers.allow).toBe('POST');
          expect(res.headers['content-disposition']).toBeUndefined();
          expect(res.json().error).toEqual({
            code: 'method_not_allowed',
            message:
              'To download your data, use the “Download my data” button in the “Your data” section of your settings.',
          });
        }
      }
      // A form on another site cannot post it.
      const forged = await t.inject({
        method: 'POST',
        url: '/api/me/export',
        headers: { cookie: fede.cookie, origin: 'https://evil.example' },
      });
      expect(forged.statusCode).toBe(403);
      expect((await req('POST', '/api/me/export')).statusCode).toBe(401);

      const res = await req('POST', '/api/me/export', fede);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="scaffale-/);
      expect(res.json().profile.email).toBe(fede.email);
    },
    SLOW,
  );
});

describe('data matched by e-mail alone', () => {
  it(
    'is exported, and erased, only once the address is verified',
    async () => {
      const victim = `vera-${Math.random().toString(16).slice(2)}@example.com`;
      const someone = await createMember(t);
      const contact = await t.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: randomClientIp(),
        payload: { name: 'Vera', email: victim, subject: 'support', message: 'Il mio indirizzo' },
      });
      expect(contact.statusCode, contact.body).toBe(201);
      const report = await t.inject({
        method: 'POST',
        url: '/api/reports',
        remoteAddress: randomClientIp(),
        payload: {
          kind: 'profile',
          id: someone.id,
          reason: 'illegal',
          name: 'Vera',
          email: victim,
        },
      });
      expect(report.statusCode, report.body).toBe(201);

      // Someone else signs up with Vera's address and does not verify it.
      const impostor = await createMember(t, { email: victim, verified: false });
      const unverified = (await req('POST', '/api/me/export', impostor)).json();
      expect(unverified.profile.emailVerified).toBe(false);
      expect(unverified.contactMessages).toEqual([]);
      expect(unverified.reportsFiled).toEqual([]);

      await t.database.query('update users set email_verified = true where id = $1', [impostor.id]);
      const verified = (await req('POST', '/api/me/export', impostor)).json();
      expect(verified.contactMessages).toEqual([
        expect.objectContaining({ name: 'Vera', message: 'Il mio indirizzo' }),
      ]);
      expect(verified.reportsFiled).toEqual([expect.objectContaining({ itemId: someone.id })]);

      // Unverified again: deleting the account leaves what was sent under that address.
      await t.database.query('update users set email_verified = false where id = $1', [
        impostor.id,
      ]);
      expect((await deleteAccount(impostor)).statusCode).toBe(200);
      const [left] = await t.database.query<{ n: number }>(
        'select count(*)::int as n from contact_messages where email = $1',
        [victim],
      );
      expect(left.n).toBe(1);
    },
    SLOW,
  );
});

describe("deleting an account named like the site's own name", () => {
  it(
    "keeps every other member's e-mails and removes those to or naming the member",
    async () => {
      const name = 'Scaffale';
      const others = [await createMember(t), await createMember(t), await createMember(t)];
      for (const other of others) {
        const reset = await t.inject({
          method: 'POST',
          url: '/api/auth/request-password-reset',
          remoteAddress: randomClientIp(),
          payload: { email: other.email, redirectTo: '/reset-password' },
        });
        expect(reset.statusCode, reset.body).toBe(200);
      }
      const toOthers = async () =>
        t.database.query<{ id: number; text: string }>(
          `select id, text from mail_outbox where "to" = any($1::text[]) order by id`,
          [others.map((o) => o.email)],
        );
      const kept = await toOthers();
      // Sign-up confirmation and reset e-mails for each, every one holding the name.
      expect(kept.length).toBeGreaterThanOrEqual(others.length * 2);
      for (const mail of kept) expect(mail.text).toContain(name);

      const leaving = await createMember(t, { displayName: name });
      // Leaving writes to the seller, who is away: the e-mail names Leaving as the sender.
      const listing = await createListing(t, others[0]);
      const wrote = await req('POST', '/api/chats/contact', leaving, {
        listingId: listing.id,
        content: 'È ancora disponibile?',
      });
      expect(wrote.statusCode, wrote.body).toBe(201);
      // The e-mail is sent after the message is committed, apart from the answer.
      await vi.waitFor(
        async () => {
          const naming = (await toOthers()).filter((m) => !kept.some((k) => k.id === m.id));
          expect(naming).toHaveLength(1);
          expect(naming[0].text).toContain(name);
        },
        { timeout: 10_000, interval: 100 },
      );
      const [{ n: toLeaving }] = await t.database.query<{ n: number }>(
        'select count(*)::int as n from mail_outbox where "to" = $1',
        [leaving.email],
      );
      expect(toLeaving).toBeGreaterThan(0);

      expect((await deleteAccount(leaving)).statusCode).toBe(200);
      expect((await toOthers()).map((m) => m.id)).toEqual(kept.map((m) => m.id));
      const [{ n: left }] = await t.database.query<{ n: number }>(
        'select count(*)::int as n from mail_outbox where lower("to") = lower($1)',
        [leaving.email],
      );
      expect(left).toBe(0);
    },
    SLOW,
  );
});
