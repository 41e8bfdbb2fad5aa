import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { envSchema, loadConfig } from './config';

const base = { AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/scaffale-test-data' };

describe('storage settings', () => {
  it('keeps uploads on local disk by default', () => {
    expect(loadConfig(base).storage).toEqual({ kind: 'local' });
    expect(loadConfig({ ...base, STORAGE: '', S3_BUCKET: 'ignored' }).storage).toEqual({
      kind: 'local',
    });
  });

  it('reads the S3 variables, with the documented defaults', () => {
    expect(loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'scaffale' }).storage).toEqual({
      kind: 's3',
      bucket: 'scaffale',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      publicUrl: undefined,
    });
    expect(
      loadConfig({
        ...base,
        STORAGE: 'S3',
        S3_BUCKET: 'uploads',
        S3_REGION: 'eu-central-1',
        S3_ENDPOINT: 'http://minio:9000/',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PUBLIC_URL: 'https://cdn.example.org/uploads/',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'uploads',
      region: 'eu-central-1',
      endpoint: 'http://minio:9000',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      publicUrl: 'https://cdn.example.org/uploads',
    });
  });

  it('stops with a message naming the variable when a value is wrong or missing', () => {
    expect(() => loadConfig({ ...base, STORAGE: 'ftp' })).toThrow(/STORAGE must be local or s3/);
    expect(() => loadConfig({ ...base, STORAGE: 's3' })).toThrow(/S3_BUCKET must be set/);
    expect(() =>
      loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-the-id' }),
    ).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT must be an http or https URL/,
    );
    expect(() => loadConfig({ ...base, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE must be true or false/,
    );
  });
});

describe('metrics settings', () => {
  it('are open outside production, off in production unless a token or METRICS=on', () => {
    expect(loadConfig({ ...base }).metrics).toEqual({ enabled: true });
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).metrics).toEqual({ enabled: true });
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).metrics).toEqual({ enabled: false });
    expect(loadConfig({ ...base, NODE_ENV: 'production', METRICS: 'on' }).metrics).toEqual({
      enabled: true,
    });
    expect(loadConfig({ ...base, NODE_ENV: 'production', METRICS_TOKEN: 'tok' }).metrics).toEqual({
      enabled: true,
      token: 'tok',
    });
    expect(loadConfig({ ...base, METRICS_TOKEN: 'tok' }).metrics).toEqual({
      enabled: true,
      token: 'tok',
    });
    expect(loadConfig({ ...base, METRICS: 'off', METRICS_TOKEN: 'tok' }).metrics).toEqual({
      enabled: false,
    });
    expect(() => loadConfig({ ...base, METRICS: 'maybe' })).toThrow(/METRICS must be on or off/);
  });
});

describe('log format', () => {
  it('is JSON away from a terminal, pretty when asked or at a terminal', () => {
    expect(loadConfig({ ...base, LOG_FORMAT: 'pretty', NODE_ENV: 'production' }).logPretty).toBe(
      true,
    );
    expect(loadConfig({ ...base, LOG_FORMAT: 'json', NODE_ENV: 'development' }).logPretty).toBe(
      false,
    );
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).logPretty).toBe(!!process.stdout.isTTY);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).logPretty).toBe(!!process.stdout.isTTY);
    expect(() => loadConfig({ ...base, LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be/);
  });
});

describe('.env.example', () => {
  it('lists every variable the server reads', () => {
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const listed = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const missing = Object.keys(envSchema.shape).filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });
});
