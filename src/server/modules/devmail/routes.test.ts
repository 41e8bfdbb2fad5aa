import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createTestApp } from '../../test/app';

const RESET_MAIL = {
  name: 'Anna',
  email: 'anna@example.org',
  subject: 'general',
  message: 'reset link http://localhost:3000/reset-password?token=secret-token',
};

async function appWithMail(devMailViewer: boolean) {
  const t = await createTestApp({ config: { devMailViewer } });
  const sent = await t.inject({ method: 'POST', url: '/api/contact', payload: RESET_MAIL });
  expect(sent.statusCode).toBeLessThan(300);
  return t;
}

function expectHidden(res: { statusCode: number; body: string }) {
  expect(res.statusCode).toBe(404);
  expect(res.body).not.toContain('secret-token');
  expect(res.body).not.toContain('anna@example.org');
}

describe('outbox viewer switch', () => {
  it('is off unless DEV_MAIL_VIEWER turns it on, and always off for a production config', () => {
    const base = { PORT: '3000', AUTH_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).devMailViewer).toBe(false);
    expect(loadConfig(base).devMailViewer).toBe(false);
    expect(loadConfig({ ...base, DEV_MAIL_VIEWER: '' }).devMailViewer).toBe(false);
    expect(loadConfig({ ...base, DEV_MAIL_VIEWER: 'false' }).devMailViewer).toBe(false);
    expect(loadConfig({ ...base, DEV_MAIL_VIEWER: 'true' }).devMailViewer).toBe(true);
  });

  it('answers 404 even to loopback when the viewer is off', async () => {
    const t = await appWithMail(false);
    for (const url of ['/api/dev/mail', '/dev/mail']) {
      const res = await t.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
      expectHidden(res);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    }
  });
});

describe('outbox viewer behind a reverse proxy on the same host', async () => {
  const t = await appWithMail(true);

  it('serves a direct loopback client when on', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/dev/mail' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('secret-token');
    const page = await t.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.statusCode).toBe(200);
  });

  it('answers 404 to a loopback request carrying any forwarding header', async () => {
    const forwarded: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.5' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.5;proto=https' },
      { 'x-forwarded-host': 'scaffale.example' },
      { 'x-forwarded-proto': 'https' },
      { 'x-real-ip': '203.0.113.5' },
      { via: '1.1 nginx' },
    ];
    for (const headers of forwarded) {
      for (const url of ['/api/dev/mail', '/dev/mail']) {
        const res = await t.inject({ method: 'GET', url, headers });
        expectHidden(res);
      }
    }
  });

  it('answers 404 to a visitor reaching it through a real proxy that connects from loopback', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.server.address() as AddressInfo).port;
    // What nginx or Caddy in front of the app does: a new loopback connection per visitor,
    // with the visitor's address in X-Forwarded-For.
    const proxy: Server = createServer((req, res) => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: appPort,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, 'x-forwarded-for': '203.0.113.5' },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const proxyPort = (proxy.address() as AddressInfo).port;

    for (const path of ['/api/dev/mail', '/dev/mail']) {
      const res = await fetch(`http://127.0.0.1:${proxyPort}${path}`);
      expectHidden({ statusCode: res.status, body: await res.text() });
    }
    // The same server, reached directly from this machine, still answers.
    const direct = await fetch(`http://127.0.0.1:${appPort}/api/dev/mail`);
    expect(direct.status).toBe(200);
  });
});
