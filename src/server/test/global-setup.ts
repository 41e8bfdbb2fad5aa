import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres } from '../db/client';
import { migrate } from '../db/migrate';
import { SUITE_BUCKET, startTestS3, type TestS3 } from './s3';

/**
 * Migrates once per run: a PGlite data directory dumped to a file that every test file loads
 * (about half a second), and, when TEST_DATABASE_URL is set, a template database on that server
 * that every test file clones.
 */
export default async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'scaffale-test-'));
  const db = await openPglite();
  await migrate(db);
  const dump = await db.pglite!.dumpDataDir('none');
  writeFileSync(join(dir, 'template.tar'), Buffer.from(await dump.arrayBuffer()));
  await db.close();
  process.env.SCAFFALE_TEST_TEMPLATE = join(dir, 'template.tar');

  // TEST_STORAGE=s3: every app the suite builds keeps its uploads in a bucket (test/app.ts).
  let s3: TestS3 | undefined;
  if (process.env.TEST_STORAGE === 's3') {
    s3 = await startTestS3(SUITE_BUCKET);
    process.env.SCAFFALE_TEST_S3_ENDPOINT = s3.endpoint;
  }

  const url = process.env.TEST_DATABASE_URL;
  let template: string | undefined;
  if (url) {
    template = `scaffale_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${template}`;
    const tdb = openPostgres(target.toString(), 1);
    await migrate(tdb);
    await tdb.close();
    process.env.SCAFFALE_TEST_PG_TEMPLATE = template;
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await s3?.close();
    if (url && template) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists ${template}`).catch(() => {});
      await admin.end();
    }
  };
}
