import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startOidcProvider, type OidcAccount } from '../../../../scripts/oidc-provider';
import { createTestApp } from '../../test/app';
import { cookieFrom, createMember, randomClientIp } from '../../test/members';
import { accounts } from '../../db/schema';

/**
 * Google sign-in against a real OpenID Connect provider on loopback (scripts/oidc-provider.ts):
 * discovery, authorization code with PKCE, a signed ID token, all over real HTTP.
 */
describe('accounts: Google sign-in (OpenID Connect)', async () => {
  const clientId = 'scaffale-test';
  const clientSecret = 'scaffale-test-secret';
  const oidc = await startOidcProvider({
    port: 0,
    clientId,
    clientSecret,
    redirectUris: ['http://localhost:3000/api/auth/callback/google'],
    autoApprove: true,
  });
  afterAll(() => oidc.close());
  const testApp = await createTestApp({
    config: { google: { clientId, clientSecret, issuer: oidc.issuer } },
  });
  const { inject, database } = testApp;

  /** Walks the browser's path: our start route, the provider's pages, back to our callback. */
  async function googleSignIn(
    account: OidcAccount,
    callbackURL = '/auth/callback?redirect_to=%2Flibrary',
  ) {
    oidc.setAccount(account);
    const start = await inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      remoteAddress: randomClientIp(),
      payload: { provider: 'google', callbackURL, errorCallbackURL: '/auth/callback' },
    });
    expect(start.statusCode, start.body).toBe(200);
    const ourCookies = cookieFrom(start);
    let location: string = start.json().url;
    const authorize = new URL(location);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${oidc.issuer}/auth`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toBeTruthy();

    const jar = new Map<string, string>();
    for (let hop = 0; hop < 10 && location.startsWith(oidc.issuer); hop++) {
      const res = await fetch(location, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      expect(res.status, await res.clone().text()).toBeGreaterThanOrEqual(300);
      location = new URL(res.headers.get('location')!, location).toString();
    }
    const back = new URL(location);
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/api/auth/callback/google');
    const callback = await inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: ourCookies },
    });
    return { callback, cookie: cookieFrom(callback) };
  }

  it('GET /api/accounts/providers says Google is on', async () => {
    const res = await inject({ method: 'GET', url: '/api/accounts/providers' });
    expect(res.json()).toEqual({ google: true });
  });

  it('a new Google user gets a verified account and a session, then returns to the app', async () => {
    const { callback, cookie } = await googleSignIn({
      sub: 'g-new-1',
      email: 'google-user@example.com',
      emailVerified: true,
      name: 'Gianni Google',
    });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/auth/callback?redirect_to=%2Flibrary');
    expect(cookie).toContain('scaffale.session_token=');
    const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'google-user@example.com',
      emailVerified: true,
      accountStatus: 'verified',
      displayName: 'Gianni Google',
      // Google asked nothing of the terms: the first-visit page asks for them.
      needsTerms: true,
    });
    const accepted = await inject({
      method: 'PATCH',
      url: '/api/me',
      headers: { cookie },
      payload: { acceptTerms: true },
    });
    expect(accepted.json()).toMatchObject({ needsTerms: false });
    const linked = await database.db
      .select()
      .from(accounts)
      .where(eq(accounts.userId, me.json().id));
    expect(linked.map((a) => [a.providerId, a.accountId])).toEqual([['google', 'g-new-1']]);
    // Tokens are stored encrypted (hex ciphertext), never as issued.
    expect(linked[0].accessToken).toMatch(/^[0-9a-f]{64,}$/);

    // Signing in again is the same member.
    const again = await googleSignIn({
      sub: 'g-new-1',
      email: 'google-user@example.com',
      emailVerified: true,
      name: 'Gianni Google',
    });
    const me2 = await inject({ method: 'GET', url: '/api/me', headers: { cookie: again.cookie } });
    expect(me2.json().id).toBe(me.json().id);
  });

  it('a Google account with the e-mail of an existing verified member signs into that member', async () => {
    const member = await createMember(testApp, { email: 'lucia@example.com', verified: true });
    const { cookie } = await googleSignIn({
      sub: 'g-lucia',
      email: 'lucia@example.com',
      emailVerified: true,
      name: 'Lucia G.',
    });
    const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(member.id);
    const rows = await database.db.select().from(accounts).where(eq(accounts.userId, member.id));
    expect(rows.map((a) => a.providerId).sort()).toEqual(['credential', 'google']);
  });

  it('is not linked into an unconfirmed account someone registered with that e-mail', async () => {
    const squatter = await createMember(testApp, { email: 'victim@example.com', verified: false });
    const { callback, cookie } = await googleSignIn({
      sub: 'g-victim',
      email: 'victim@example.com',
      emailVerified: true,
      name: 'Victim',
    });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toMatch(/^\/auth\/callback\?error=/);
    expect(cookie).not.toContain('session_token');
    const rows = await database.db.select().from(accounts).where(eq(accounts.userId, squatter.id));
    expect(rows.map((a) => a.providerId)).toEqual(['credential']);
  });

  it('refuses a callbackURL on another site', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      headers: { 'accept-language': 'en' },
      payload: { provider: 'google', callbackURL: 'https://evil.example/after' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'invalid_callback_url',
      message: 'The return address is not valid.',
    });
  });
});
