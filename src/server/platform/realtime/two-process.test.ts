import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import { createMember, makeAdmin, randomClientIp, signIn, type Member } from '../../test/members';
import { createNullRealtime } from './index';
import { eventually, mustOpen } from './testing';

const ORIGIN = 'http://localhost:3000';
const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('two-process realtime test skipped: TEST_DATABASE_URL is not set');

/** A server process of its own, driven over stdin/stdout (see test-server.ts). */
interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  call(op: string, args: Record<string, unknown>): Promise<unknown>;
}

async function startServer(databaseUrl: string): Promise<ServerProcess> {
  const script = fileURLToPath(new URL('./test-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: testConfig().authSecret,
      PRESENCE_REFRESH_MS: '500',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const pending = new Map<
    number,
    (answer: { ok: boolean; value?: unknown; error?: string }) => void
  >();
  let nextId = 1;
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
    lines.on('line', (line) => {
      const msg = JSON.parse(line);
      if (msg.url) {
        clearTimeout(timer);
        resolve(msg.url);
      } else pending.get(msg.id)?.(msg);
    });
  });
  return {
    url,
    child,
    call(op, args) {
      const id = nextId++;
      child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
      return new Promise((resolve, reject) => {
        pending.set(id, (answer) =>
          answer.ok ? resolve(answer.value) : reject(new Error(answer.error)),
        );
      });
    },
  };
}

describe.skipIf(!pgUrl)('two server processes on one PostgreSQL database', () => {
  let t: TestApp;
  let one: ServerProcess;
  let two: ServerProcess;
  let ann: Member;
  let databaseUrl: string;

  beforeAll(async () => {
    const database = await createTestDatabase();
    databaseUrl = String(database.pool!.options.connectionString);
    // This process only signs members in; the sockets live on the two servers.
    t = await createTestApp({ database, deps: { realtime: createNullRealtime() } });
    ann = await createMember(t);
    [one, two] = await Promise.all([startServer(databaseUrl), startServer(databaseUrl)]);
  }, 200_000);

  afterAll(async () => {
    for (const server of [one, two]) {
      if (!server || server.child.exitCode !== null) continue;
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
  });

  it('an event published on one process reaches a socket held by the other', async () => {
    const socket = await mustOpen(one.url, { cookie: ann.cookie, origin: ORIGIN });
    await two.call('toUsers', { users: [ann.id], event: { type: 'chat.message', roomId: 'r1' } });
    expect(await socket.next((f) => f.type === 'chat.message')).toEqual({
      type: 'chat.message',
      roomId: 'r1',
    });
    socket.ws.close();
    await socket.closed;
  });

  it("disconnecting a member on one process closes that member's socket held by the other", async () => {
    const cy = await createMember(t);
    const onOne = await mustOpen(one.url, { cookie: cy.cookie, origin: ORIGIN });
    const onTwo = await mustOpen(two.url, { cookie: cy.cookie, origin: ORIGIN });
    const annSocket = await mustOpen(one.url, { cookie: ann.cookie, origin: ORIGIN });
    await two.call('disconnectUsers', { users: [cy.id] });
    expect(await onOne.closed).toBe(4401);
    expect(await onTwo.closed).toBe(4401);
    await two.call('toUsers', { users: [ann.id], event: { type: 'still.open' } });
    expect(await annSocket.next((f) => f.type === 'still.open')).toEqual({ type: 'still.open' });
    annSocket.ws.close();
    await annSocket.closed;
  });

  it("signing out closes that session's sockets on both processes within a second, and no other", async () => {
    // The process that handles the sign-out holds no sockets and makes no call: the sessions
    // table announces the end, and each process closes its own sockets of that session.
    const dee = await createMember(t);
    const laptop = await signIn(t, dee.email, dee.password);
    const onOne = await mustOpen(one.url, { cookie: dee.cookie, origin: ORIGIN });
    const onTwo = await mustOpen(two.url, { cookie: dee.cookie, origin: ORIGIN });
    const kept = await mustOpen(two.url, { cookie: laptop, origin: ORIGIN });
    const out = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: dee.cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const within = (closed: Promise<number>) =>
      Promise.race([closed, new Promise((r) => setTimeout(() => r('still open'), 1000))]);
    expect(await within(onOne.closed)).toBe(4401);
    expect(await within(onTwo.closed)).toBe(4401);
    await one.call('toUsers', { users: [dee.id], event: { type: 'after.sign-out' } });
    expect(await kept.next((f) => f.type === 'after.sign-out')).toEqual({
      type: 'after.sign-out',
    });
    expect(onOne.frames.concat(onTwo.frames)).toEqual([]);
    kept.ws.close();
  });

  it('sign out other devices, a password reset, a suspension and a deletion close the sockets on both processes within a second', async () => {
    // Every action goes through this process, which holds no socket; the sockets live on one and two.
    const within = (closed: Promise<number>) =>
      Promise.race([closed, new Promise((r) => setTimeout(() => r('still open'), 1000))]);
    const as = (cookie: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.inject({
        method,
        url,
        remoteAddress: randomClientIp(),
        headers: { cookie, 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });

    // Sign out other devices: the phone's sockets close on both, the laptop's stays.
    const eve = await createMember(t);
    const phone = await signIn(t, eve.email, eve.password);
    const phoneOnOne = await mustOpen(one.url, { cookie: phone, origin: ORIGIN });
    const phoneOnTwo = await mustOpen(two.url, { cookie: phone, origin: ORIGIN });
    const laptop = await mustOpen(two.url, { cookie: eve.cookie, origin: ORIGIN });
    const others = await as(eve.cookie, 'DELETE', '/api/me/sessions/others');
    expect(others.json()).toEqual({ ended: 1 });
    expect(await within(phoneOnOne.closed)).toBe(4401);
    expect(await within(phoneOnTwo.closed)).toBe(4401);
    expect(laptop.ws.readyState).toBe(laptop.ws.OPEN);
    laptop.ws.close();

    // A password reset ends every session.
    const fay = await createMember(t);
    const fayOnTwo = await mustOpen(two.url, { cookie: fay.cookie, origin: ORIGIN });
    const ask = await t.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      remoteAddress: randomClientIp(),
      payload: { email: fay.email, redirectTo: '/reset-password' },
    });
    expect(ask.statusCode).toBe(200);
    const [mail] = await t.database.query<{ text: string }>(
      'select text from mail_outbox where "to" = $1 order by id desc limit 1',
      [fay.email],
    );
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token');
    const reset = await t.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      remoteAddress: randomClientIp(),
      payload: { newPassword: 'brand-new-pass', token },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await within(fayOnTwo.closed)).toBe(4401);

    // A suspension by an admin.
    const admin = await createMember(t);
    await makeAdmin(t, admin);
    const gus = await createMember(t);
    const gusOnOne = await mustOpen(one.url, { cookie: gus.cookie, origin: ORIGIN });
    const suspend = await as(admin.cookie, 'POST', `/api/admin/members/${gus.id}/suspend`, {
      reason: 'Violates the rules on spam (section 3).',
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect(await within(gusOnOne.closed)).toBe(4401);

    // The member deletes their account.
    const hal = await createMember(t);
    const halOnTwo = await mustOpen(two.url, { cookie: hal.cookie, origin: ORIGIN });
    const deleted = await as(hal.cookie, 'POST', '/api/me/delete', { password: hal.password });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await within(halOnTwo.closed)).toBe(4401);
  }, 60_000);

  it('a cookie cached by both processes is refused by both within a second once its session ends', async () => {
    const get = (url: string, cookie: string) =>
      fetch(`${url}/api/me`, { headers: { cookie } }).then((r) => r.status);
    const refusedWithin = async (url: string, cookie: string) => {
      const until = Date.now() + 1000;
      while (Date.now() < until) {
        if ((await get(url, cookie)) === 401) return true;
        await new Promise((r) => setTimeout(r, 25));
      }
      return false;
    };
    const warm = async (cookie: string) => {
      // Several requests each: the later ones are served by the session cache.
      for (const url of [one.url, two.url, one.url, two.url])
        expect(await get(url, cookie)).toBe(200);
    };

    // Signed out through a third process that holds no cache of it.
    const ida = await createMember(t);
    await warm(ida.cookie);
    const out = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: ida.cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect(await refusedWithin(one.url, ida.cookie)).toBe(true);
    expect(await refusedWithin(two.url, ida.cookie)).toBe(true);

    // "Sign out other devices" on process one: the phone is refused on both, the laptop kept.
    const jo = await createMember(t);
    const phone = await signIn(t, jo.email, jo.password);
    await warm(phone);
    await warm(jo.cookie);
    const others = await fetch(`${one.url}/api/me/sessions/others`, {
      method: 'DELETE',
      headers: { cookie: jo.cookie, origin: ORIGIN },
    });
    expect(others.status).toBe(200);
    expect(await get(one.url, phone)).toBe(401);
    expect(await refusedWithin(two.url, phone)).toBe(true);
    expect(await get(two.url, jo.cookie)).toBe(200);

    // A password change on process two: the other session is refused on both.
    const laptop = await signIn(t, jo.email, jo.password);
    await warm(laptop);
    const changed = await fetch(`${two.url}/api/me/password`, {
      method: 'POST',
      headers: { cookie: jo.cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword: jo.password, newPassword: 'brand-new-pass-9' }),
    });
    expect(changed.status).toBe(200);
    expect(await get(two.url, laptop)).toBe(401);
    expect(await refusedWithin(one.url, laptop)).toBe(true);

    // A suspension and a deletion written by another process.
    const kim = await createMember(t);
    const lea = await createMember(t);
    await warm(kim.cookie);
    await warm(lea.cookie);
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [kim.id]);
    await t.database.query('delete from sessions where user_id = $1', [kim.id]);
    await t.database.query('delete from users where id = $1', [lea.id]);
    for (const url of [one.url, two.url]) {
      expect(await refusedWithin(url, kim.cookie)).toBe(true);
      expect(await refusedWithin(url, lea.cookie)).toBe(true);
    }
  }, 90_000);

  it('presence is seen from both processes, and offline after the last socket anywhere', async () => {
    const bob = await createMember(t);
    const onOne = await mustOpen(one.url, { cookie: bob.cookie, origin: ORIGIN });
    const onTwo = await mustOpen(two.url, { cookie: bob.cookie, origin: ORIGIN });
    await eventually(async () => (await two.call('isOnline', { user: bob.id })) === true);
    expect(await one.call('isOnline', { user: bob.id })).toBe(true);
    onOne.ws.close();
    await onOne.closed;
    // Still online through the other process's socket.
    await new Promise((r) => setTimeout(r, 200));
    expect(await one.call('isOnline', { user: bob.id })).toBe(true);
    onTwo.ws.close();
    await onTwo.closed;
    await eventually(async () => (await one.call('isOnline', { user: bob.id })) === false);
    const [row] = await t.database.query<{ last_seen_at: Date | null }>(
      'select last_seen_at from users where id = $1',
      [bob.id],
    );
    expect(row.last_seen_at).not.toBeNull();
  });

  it('many members coming and going quickly on both processes leave presence right everywhere', async () => {
    // Members and sessions written directly (signing up hundreds through better-auth takes
    // minutes here), with cookies signed as better-auth signs them.
    const n = 120;
    const ids = Array.from({ length: n }, () => `crowd-${randomUUID()}`);
    const tokens = ids.map(() => randomBytes(24).toString('base64url'));
    await t.database.query(
      `insert into users (id, email, email_verified, display_name)
       select id, id || '@example.com', true, id from unnest($1::text[]) as id`,
      [ids],
    );
    await t.database.query(
      `insert into sessions (id, user_id, token, expires_at)
       select 's-' || t, u, t, now() + interval '1 day' from unnest($1::text[], $2::text[]) as x(u, t)`,
      [ids, tokens],
    );
    const secret = testConfig().authSecret;
    const cookieOf = (token: string) =>
      `scaffale.session_token=${encodeURIComponent(
        `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`,
      )}`;
    const open = (url: string, i: number) =>
      mustOpen(url, { cookie: cookieOf(tokens[i]), origin: ORIGIN });
    // Everyone arrives: even members on one, odd on two, every third on both.
    const sockets = await Promise.all(
      ids.map(async (_, i) => {
        const held = [await open(i % 2 ? two.url : one.url, i)];
        if (i % 3 === 0) held.push(await open(i % 2 ? one.url : two.url, i));
        return held;
      }),
    );
    // Flapping: a quarter close and reopen at once, several times.
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        ids.map(async (_, i) => {
          if (i % 4 !== 1) return;
          const [first] = sockets[i];
          first.ws.close();
          await first.closed;
          sockets[i][0] = await open(round % 2 ? one.url : two.url, i);
        }),
      );
    }
    // Half leave for good (every socket they hold, on both processes).
    const leaving = ids.filter((_, i) => i % 2 === 0);
    await Promise.all(
      sockets.map(async (held, i) => {
        if (i % 2 !== 0) return;
        for (const s of held) s.ws.close();
        await Promise.all(held.map((s) => s.closed));
      }),
    );
    const staying = new Set(ids.filter((_, i) => i % 2 === 1));
    for (const server of [one, two]) {
      await eventually(async () => {
        const online = new Set((await server.call('onlineAmong', { users: ids })) as string[]);
        return online.size === staying.size && [...staying].every((id) => online.has(id));
      }, 10_000);
    }
    const seen = await t.database.query<{ id: string }>(
      'select id from users where id = any($1::text[]) and last_seen_at is not null',
      [leaving],
    );
    expect(seen.length).toBe(leaving.length);
    for (const held of sockets) for (const s of held) s.ws.close();
    // Cleaned up once both processes have written everyone's departure.
    for (const server of [one, two]) {
      await eventually(
        async () => ((await server.call('onlineAmong', { users: ids })) as string[]).length === 0,
        10_000,
      );
    }
    await t.database.query('delete from users where id = any($1::text[])', [ids]);
  }, 120_000);

  it('after the LISTEN connection drops, sockets are told to reconnect and delivery resumes', async () => {
    const socket = await mustOpen(one.url, { cookie: ann.cookie, origin: ORIGIN });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const dbName = new URL(databaseUrl).pathname.slice(1);
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'scaffale_realtime' and datname = $1`,
      [dbName],
    );
    // Messages may have been missed meanwhile: the client is asked to reconnect and catch up.
    expect(await socket.closed).toBe(1012);
    const again = await mustOpen(one.url, { cookie: ann.cookie, origin: ORIGIN });
    await eventually(async () => {
      const { rows } = await admin.query(
        `select count(*)::int as n from pg_stat_activity
         where application_name = 'scaffale_realtime' and datname = $1 and query ilike 'listen%'`,
        [dbName],
      );
      return rows[0].n === 2;
    }, 15_000);
    await admin.end();
    await two.call('toUsers', { users: [ann.id], event: { type: 'after.gap' } });
    expect(await again.next((f) => f.type === 'after.gap')).toEqual({ type: 'after.gap' });
    again.ws.close();
  }, 30_000);
});
