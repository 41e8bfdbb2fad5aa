import { describe, expect, it } from 'vitest';
import { trustedOriginsOf } from '../config';
import { createTestApp } from '../test/app';

describe('trusted origins', () => {
  it('are the public origin, with its loopback twins for a localhost address', () => {
    expect(trustedOriginsOf('https://scaffale.example/')).toEqual(['https://scaffale.example']);
    expect(trustedOriginsOf('http://localhost:3000')).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
    ]);
  });
});

describe('cross-site request forgery protection', async () => {
  const { inject } = await createTestApp();
  const post = (headers: Record<string, string | undefined>) =>
    inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', ...headers },
      payload: { name: 'Ada', email: 'ada@example.com', subject: 'general', message: 'Ciao' },
    });

  it('accepts our own origin and its loopback twin', async () => {
    expect((await post({ origin: 'http://localhost:3000' })).statusCode).toBe(201);
    expect((await post({ origin: 'http://127.0.0.1:3000' })).statusCode).toBe(201);
  });

  it('refuses a foreign or missing origin with 403 Access denied', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:3001', undefined]) {
      const res = await post({ origin, 'accept-language': 'en' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('Access denied');
    }
  });
});
