import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../config';

export interface TestS3 {
  settings: S3Settings;
  /** http://127.0.0.1:<port> */
  endpoint: string;
  server: S3rver;
  close(): Promise<void>;
}

/** The bucket `TEST_STORAGE=s3` runs the suite on (global-setup starts its server). */
export const SUITE_BUCKET = 'scaffale-suite';

export function testS3Settings(
  endpoint: string,
  bucket = SUITE_BUCKET,
): { kind: 's3' } & S3Settings {
  return {
    kind: 's3',
    bucket,
    region: 'us-east-1',
    endpoint,
    // s3rver's fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
}

/**
 * A real S3-protocol server (s3rver, files in a temporary folder) on a free loopback port, with
 * one empty bucket: the AWS SDK talks to it exactly as to AWS, MinIO or Garage, path-style.
 */
export async function startTestS3(bucket = 'scaffale-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'scaffale-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    server,
    settings: (({ kind: _kind, ...settings }) => settings)(testS3Settings(endpoint, bucket)),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
