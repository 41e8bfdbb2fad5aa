import { describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase } from '../../test/app';

describe('platform', async () => {
  const { inject, database } = await createTestApp();

  it('GET /api/health answers ok when the database answers', async () => {
    const res = await inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document and its viewer', async () => {
    const doc = await inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
    expect(Object.keys(doc.json().paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/stats', '/api/contact']),
    );
    const ui = await inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });

  it('sends a Content Security Policy limited to our own origin', async () => {
    const res = await inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:\/\//);
  });

  it('answers unknown API paths with 404 in the error format and the request language', async () => {
    const res = await inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    const it = await inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'accept-language': 'it-IT' },
    });
    expect(it.json().error.message).toBe('Non trovato');
  });

  it('rejects malformed JSON with 400, not 500', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('bad_request');
  });

  it('rejects bodies over the limit with 413', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('counts site statistics for the home page', async () => {
    const res = await inject({ method: 'GET', url: '/api/stats' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ booksAvailable: 0, activeUsers: 0, totalTransactions: 0 });
    expect(database.kind).toMatch(/pglite|postgres/);
  });
});

describe('readiness', () => {
  it('GET /api/ready answers ready, never cached, and is in the OpenAPI document', async () => {
    const { inject } = await createTestApp();
    const res = await inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
    expect(res.headers['cache-control']).toBe('no-store');
    const doc = (await inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths['/api/ready'].get.responses)).toEqual(
      expect.arrayContaining(['200', '503']),
    );
  });

  it('while draining: ready is 503, liveness stays 200, every answer closes its connection', async () => {
    const { app, inject } = await createTestApp({
      config: { drain: { delayMs: 400, timeoutMs: 1000 } },
    });
    expect(app.lifecycle.draining).toBe(false);
    const drained = app.lifecycle.drain();
    expect(app.lifecycle.draining).toBe(true);
    const ready = await inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'draining' });
    expect(ready.headers.connection).toBe('close');
    const health = await inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.headers.connection).toBe('close');
    // A second call is the same drain.
    expect(app.lifecycle.drain()).toBe(drained);
    await drained;
  });

  it('answers 503 unavailable when the database does not answer', async () => {
    const database = await createTestDatabase();
    const { inject } = await createTestApp({ database });
    await database.close();
    const res = await inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
  });
});
