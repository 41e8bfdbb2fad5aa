import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * compose.yaml, read as a linter would: every image has an exact version, and the app reaches
 * the bucket with a user of its own, never with MinIO's root credentials (docs/operations.md).
 */
const compose = readFileSync(join(__dirname, '..', 'compose.yaml'), 'utf8');
const lines = compose.split('\n').filter((line) => !/^\s*#/.test(line));

/** `image:` values, as written. */
const images = lines.flatMap((line) => /^\s*image:\s*(\S+)\s*$/.exec(line)?.[1] ?? []);

/** The variable behind `KEY: ${VAR...}` in the block starting at `start` (a line that matches). */
function variableOf(block: RegExp, key: string): string | undefined {
  const start = lines.findIndex((line) => block.test(line));
  if (start < 0) return undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const m = new RegExp(`^\\s*${key}:\\s*\\$\\{(\\w+)`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** An exact version: digits with dots (17.11, 3.0.28) or MinIO's RELEASE timestamps. */
const exact = /^(\d+\.\d+(\.\d+)?(-[\w.]+)?|RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)$/;

describe('compose.yaml', () => {
  it('names the images it uses', () => {
    expect(images.length).toBeGreaterThanOrEqual(5);
  });

  it('pins every image to an exact version: no latest, no bare or floating tag', () => {
    for (const image of images) {
      const [name, tag] = image.split('@')[0].split(/:(?=[^/:]*$)/);
      expect(tag, `${image} has a tag`).toBeTruthy();
      expect(tag, image).not.toMatch(/latest/i);
      if (name === 'scaffale') continue; // built here from this checkout, never pulled
      expect(tag, `${image} has an exact version`).toMatch(exact);
    }
  });

  it('gives the app S3 credentials that are not MinIO’s root ones', () => {
    const key = variableOf(/^x-app:/, 'S3_ACCESS_KEY_ID');
    const secret = variableOf(/^x-app:/, 'S3_SECRET_ACCESS_KEY');
    const rootUser = variableOf(/^\s{2}minio:/, 'MINIO_ROOT_USER');
    const rootPassword = variableOf(/^\s{2}minio:/, 'MINIO_ROOT_PASSWORD');
    expect([key, secret, rootUser, rootPassword].every(Boolean), compose).toBe(true);
    expect(key).not.toBe(rootUser);
    expect(secret).not.toBe(rootPassword);
    expect([key, secret]).not.toContain('MINIO_ROOT_USER');
    expect([key, secret]).not.toContain('MINIO_ROOT_PASSWORD');
    // No app service carries the root credentials at all.
    const app = compose.slice(compose.indexOf('x-app:'), compose.indexOf('\nservices:'));
    expect(app).not.toContain('MINIO_ROOT');
  });

  it('creates that user in the bucket service, with a policy limited to the bucket', () => {
    const bucket = compose.slice(compose.indexOf('\n  bucket:'), compose.indexOf('\n  app1:'));
    expect(bucket).toContain(
      'mc admin user add store "$$S3_ACCESS_KEY_ID" "$$S3_SECRET_ACCESS_KEY"',
    );
    expect(bucket).toContain(
      'mc admin policy attach store scaffale-app --user "$$S3_ACCESS_KEY_ID"',
    );
    const resources = [...bucket.matchAll(/arn:aws:s3:::([^\\"]+)/g)].map((m) => m[1]);
    expect(resources).toEqual(['$$S3_BUCKET', '$$S3_BUCKET/*']);
    expect(bucket).not.toMatch(/s3:\*|admin:/);
    // The apps start only once it has finished.
    expect(compose).toMatch(/bucket:\n\s+condition: service_completed_successfully/);
  });
});
