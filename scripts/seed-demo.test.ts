import { describe, expect, it } from 'vitest';
import { createTestApp } from '../src/server/test/helpers';
import { randomClientIp } from '../src/server/test/members';
import { DEMO_PASSWORD, demoMembers, runSeed } from './seed-demo';

describe('seed:demo', async () => {
  const { inject, database, config } = await createTestApp();
  const quiet = () => {};

  it('creates the demo members once; running it again changes nothing', async () => {
    const first = await runSeed({ config, database, log: quiet });
    expect(first.members).toHaveLength(demoMembers.length);
    const count = async () =>
      (await database.query<{ n: number }>('select count(*)::int as n from users'))[0].n;
    expect(await count()).toBe(demoMembers.length);

    const second = await runSeed({ config, database, log: quiet });
    expect(await count()).toBe(demoMembers.length);
    expect(second.members.map((m) => m.id)).toEqual(first.members.map((m) => m.id));
  }, 120_000); // the whole seed: a dozen password hashes and a few hundred listings

  it('a demo member signs in by username with the documented password, confirmed, with a profile', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      payload: { identifier: 'emily_reads', password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      email: 'emily.carter@example.org',
      displayName: 'Emily Carter',
      username: 'emily_reads',
      accountStatus: 'verified',
      locationCity: 'London',
      preferredLanguage: 'en',
    });
    const mail = await database.query('select * from mail_outbox');
    expect(mail).toHaveLength(0);
  });
});
