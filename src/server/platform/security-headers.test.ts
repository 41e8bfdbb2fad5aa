import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createTestApp } from '../test/app';
import { helmetHeaders, registerSecurityHeaders } from './security-headers';

describe('security headers', async () => {
  const { inject } = await createTestApp();

  it('puts the same set on API answers, 404s and the app page', async () => {
    const answers = await Promise.all([
      inject({ method: 'GET', url: '/api/health' }),
      inject({ method: 'GET', url: '/api/nope' }),
      inject({ method: 'GET', url: '/library' }),
    ]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';" +
          "img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';object-src 'none';" +
          "frame-ancestors 'none';base-uri 'self';form-action 'self'",
      );
      // Plain http: no HSTS (a browser would refuse the site over http for half a year).
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('lets the API viewer keep its own policy', async () => {
    const ui = await inject({ method: 'GET', url: '/api/docs/static/index.html' });
    expect(String(ui.headers['content-security-policy'])).toContain('validator.swagger.io');
  });

  it('is what Helmet itself sets for the options, HSTS and upgrades over https', async () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: [] } },
      hsts: { maxAge: 15552000, includeSubDomains: true },
    });
    expect(headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(headers['x-powered-by']).toBeUndefined();

    const app = Fastify();
    registerSecurityHeaders(app, { hsts: false });
    app.get('/', async () => 'ok');
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['x-xss-protection']).toBe('0');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });
});
