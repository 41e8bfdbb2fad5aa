import { describe, expect, it } from 'vitest';
import { loadConfig, parseEnv } from './config';

const base = { AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/scaffale-test-data' };

describe('the environment', () => {
  it('gives every variable its documented default when unset or empty', () => {
    const config = loadConfig({ ...base, HOST: '', PORT: '' });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      databasePoolSize: 10,
      logLevel: 'info',
      trustProxy: false,
      bodyLimit: 1024 * 1024,
      authRateLimitPerMinute: 10,
      authAccountRateLimitPerHour: 20,
      mailFrom: 'Scaffale <no-reply@scaffale.local>',
      supportEmail: 'support@scaffale.local',
      google: undefined,
      googleBooks: {
        baseUrl: 'https://www.googleapis.com/books/v1',
        enabled: true,
        timeoutMs: 2500,
      },
      secureCookies: false,
      adsCostPerClick: 0.2,
      adsServingCacheMs: 2000,
      publicReadCacheMs: 2000,
      devMailViewer: false,
      webConcurrency: 1,
    });
  });

  it('reads numbers, flags and URLs, and keeps the lower bounds', () => {
    const config = loadConfig({
      ...base,
      PORT: '8080',
      PUBLIC_URL: 'https://scaffale.example/',
      TRUST_PROXY: '1',
      GOOGLE_BOOKS_ENABLED: 'false',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      DATABASE_POOL_SIZE: '0',
      ADS_COST_PER_CLICK: '0.255',
      PUBLIC_READ_CACHE_MS: '0',
    });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://scaffale.example');
    expect(config.trustedOrigins).toEqual(['https://scaffale.example']);
    expect(config.secureCookies).toBe(true);
    expect(config.trustProxy).toBe(true);
    expect(config.googleBooks.enabled).toBe(false);
    expect(config.google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
    });
    expect(config.databasePoolSize).toBe(1);
    expect(config.adsCostPerClick).toBe(0.26);
    expect(config.publicReadCacheMs).toBe(0);
  });

  it('refuses a bad value with a message naming the variable', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(
      'Invalid configuration:\n  PORT must be a whole number (got "eighty")',
    );
    expect(() => parseEnv({ TRUST_PROXY: 'yes' })).toThrow(
      'TRUST_PROXY must be true or false (got "yes")',
    );
    expect(() => parseEnv({ PUBLIC_URL: 'scaffale.example' })).toThrow(
      'PUBLIC_URL must be an http or https URL (got "scaffale.example")',
    );
    expect(() => parseEnv({ ADS_COST_PER_CLICK: '-1' })).toThrow(
      'ADS_COST_PER_CLICK must be an amount of 0 or more (got "-1")',
    );
  });

  it('reports every bad variable at once', () => {
    expect(() => parseEnv({ PORT: 'x', DATABASE_POOL_SIZE: 'many' })).toThrow(
      /PORT must be a whole number[^]*DATABASE_POOL_SIZE must be a whole number/,
    );
  });
});
