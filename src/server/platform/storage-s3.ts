import type { Readable } from 'node:stream';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STORAGE_CACHE_SECONDS } from '@shared/constants';
import { COVER_WIDTHS } from '@shared/cover';
import type { Config, S3Settings } from '../config';
import { AppError, sendNotFound } from './errors';
import { IMMUTABLE_CACHE_CONTROL } from './http-cache';
import {
  UPLOADS_PREFIX,
  checkFolder,
  createStorage,
  createWidthVariants,
  isKey,
  parseWidth,
  storageUnavailable,
  type BlobStore,
  type Storage,
  type VariantShelf,
} from './storage';

/** What /uploads answers for an original, on disk or in the bucket. */
export const UPLOAD_CACHE_CONTROL = `public, max-age=${STORAGE_CACHE_SECONDS}`;
/** Made widths live in the bucket beside the originals, under a prefix no upload key can have. */
export const VARIANTS_PREFIX = '.sized';

/** Opening a connection to the store; then the longest silence in the middle of a request. */
const S3_CONNECT_TIMEOUT_MS = 5_000;
const S3_IDLE_TIMEOUT_MS = 30_000;

/**
 * The S3 client for these settings. Checksums only when an operation requires them: the SDK's
 * default (a CRC trailer on every upload) is refused by several S3-compatible servers.
 */
export function createS3Client(settings: S3Settings): S3Client {
  // Node 20 is this project's supported runtime (ARCHITECTURE.md): no start-up warning about
  // future SDK releases wanting Node 22 (set the variable to false to see it).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An unreachable store (packets dropped, not refused) fails in seconds, not minutes: the
    // upload then answers 503 (storageUnavailable) instead of holding the member's request open.
    requestHandler: {
      connectionTimeout: S3_CONNECT_TIMEOUT_MS,
      requestTimeout: S3_IDLE_TIMEOUT_MS,
    },
  });
}

/** `*`, or entity tags ("…" or W/"…") separated by commas. */
const ETAG_LIST = /^(?:\*|(?:W\/)?"[\x21\x23-\x7e]*"(?:\s*,\s*(?:W\/)?"[\x21\x23-\x7e]*")*)$/;

const statusOf = (err: unknown) =>
  err instanceof S3ServiceException
    ? err.$metadata.httpStatusCode
    : (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const isMissing = (err: unknown) =>
  statusOf(err) === 404 || (err as { name?: string })?.name === 'NoSuchKey';

/** Every key under `prefix`, a page (at most 1,000) at a time. */
export async function* listKeys(
  client: S3Client,
  bucket: string,
  prefix: string,
): AsyncGenerator<{ key: string; size: number; etag?: string }[]> {
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    yield (page.Contents ?? []).map((o) => ({
      key: o.Key!,
      size: o.Size ?? 0,
      etag: o.ETag?.replace(/"/g, ''),
    }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

async function removeKeys(client: S3Client, bucket: string, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    const res = await client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
    if (failed.length) throw new Error(`S3 refused to delete ${failed[0].Key}: ${failed[0].Code}`);
  }
}

async function removePrefix(client: S3Client, bucket: string, prefix: string): Promise<void> {
  // Deleting a page does not disturb the listing: the next page starts after its last key.
  for await (const page of listKeys(client, bucket, prefix)) {
    if (page.length)
      await removeKeys(
        client,
        bucket,
        page.map((o) => o.key),
      );
  }
}

async function bufferOf(body: unknown): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Uploads in an S3-compatible bucket (AWS S3, MinIO, Garage, Cloudflare R2), under the same keys
 * as on disk ('covers/<user>/<32 hex>.webp'). The URLs handed out stay '/uploads/<key>', so the
 * database does not depend on where the files live: the app streams them from the bucket with the
 * local store's headers (conditional and range requests passed through), or, with a public URL
 * (the bucket's own address or a CDN), redirects there.
 */
export function createS3BlobStore(settings: S3Settings, client = createS3Client(settings)) {
  const bucket = settings.bucket;
  const publicUrl = settings.publicUrl?.replace(/\/$/, '');
  const checked = (key: string) => {
    if (!isKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    return key;
  };
  const getBuffer = async (key: string): Promise<Buffer | null> => {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return await bufferOf(res.Body);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };
  const shelf: VariantShelf = {
    read: (path) => getBuffer(`${VARIANTS_PREFIX}/${path}`),
    async write(path, body) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${VARIANTS_PREFIX}/${path}`,
          Body: body,
          ContentType: 'image/webp',
          CacheControl: IMMUTABLE_CACHE_CONTROL,
        }),
      );
    },
    remove: (paths) =>
      removeKeys(
        client,
        bucket,
        paths.map((p) => `${VARIANTS_PREFIX}/${p}`),
      ),
    async removeFolders(folders) {
      for (const f of folders) await removePrefix(client, bucket, `${VARIANTS_PREFIX}/${f}/`);
    },
  };
  const variants = createWidthVariants(shelf);
  /** Widths this process knows are in the bucket: redirected without asking the bucket again. */
  const made = new Set<string>();

  async function stream(key: string, request: FastifyRequest, reply: FastifyReply) {
    const h = request.headers;
    // Only well-formed conditions and ranges reach the bucket; anything else is ignored (RFC 9110).
    const etags = h['if-none-match'];
    const since = h['if-modified-since'] ? new Date(h['if-modified-since']) : undefined;
    const conditions = {
      Bucket: bucket,
      Key: key,
      IfNoneMatch: typeof etags === 'string' && ETAG_LIST.test(etags) ? etags : undefined,
      IfModifiedSince: since && !Number.isNaN(since.getTime()) ? since : undefined,
    };
    const range =
      typeof h.range === 'string' && /^bytes=\d{0,15}-\d{0,15}$/.test(h.range)
        ? h.range
        : undefined;
    let res;
    try {
      res =
        request.method === 'HEAD'
          ? await client.send(new HeadObjectCommand(conditions))
          : await client.send(new GetObjectCommand({ ...conditions, Range: range }));
    } catch (err) {
      const status = statusOf(err);
      if (status === 304) {
        return reply
          .code(304)
          .header('cache-control', UPLOAD_CACHE_CONTROL)
          .header('x-content-type-options', 'nosniff')
          .send();
      }
      if (status === 416) return reply.code(416).header('content-range', 'bytes */*').send();
      if (isMissing(err)) return sendNotFound(request, reply);
      throw err;
    }
    reply
      .code('ContentRange' in res && res.ContentRange ? 206 : 200)
      .header('content-type', res.ContentType ?? 'image/webp')
      .header('cache-control', UPLOAD_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .header('accept-ranges', 'bytes');
    if (res.ContentLength !== undefined) reply.header('content-length', res.ContentLength);
    if (res.ETag) reply.header('etag', res.ETag);
    if (res.LastModified) reply.header('last-modified', res.LastModified.toUTCString());
    if ('ContentRange' in res && res.ContentRange) reply.header('content-range', res.ContentRange);
    return reply.send('Body' in res ? (res.Body as Readable) : undefined);
  }

  const store: BlobStore & { client: S3Client; bucket: string } = {
    client,
    bucket,
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: checked(key),
          Body: body,
          ContentType: contentType,
          CacheControl: UPLOAD_CACHE_CONTROL,
        }),
      );
    },
    async remove(key) {
      checked(key);
      for (const width of COVER_WIDTHS) made.delete(`${width}/${key}`);
      await variants.remove(key);
      // S3 deletes silently whether or not the key was there: ask first, as unlink tells.
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    },
    async removeFolder(folder) {
      const segments = checkFolder(folder);
      made.clear();
      await variants.removeFolder(folder);
      await removePrefix(client, bucket, `${segments.join('/')}/`);
    },
    urlFor: (key) => `${UPLOADS_PREFIX}/${key}`,
    keyOf(url) {
      if (!url.startsWith(`${UPLOADS_PREFIX}/`)) return null;
      const key = url.slice(UPLOADS_PREFIX.length + 1);
      return isKey(key) ? key : null;
    },
    async register(app) {
      await app.register(
        async (scope) => {
          scope.setNotFoundHandler((request, reply) => sendNotFound(request, reply));
          scope.route({
            method: ['GET', 'HEAD'],
            url: '/*',
            schema: { hide: true },
            async handler(request, reply) {
              try {
                return await serve(request, reply);
              } catch (err) {
                // The bucket did not answer: 503 (try again), not a 500.
                if (err instanceof AppError) throw err;
                request.log.warn({ err }, 'the S3 bucket did not answer a read');
                throw storageUnavailable(err);
              }
            },
          });
        },
        { prefix: UPLOADS_PREFIX },
      );
    },
  };
  return store;

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const key = (request.params as { '*': string })['*'];
    const width = parseWidth((request.query as Record<string, unknown>).w);
    if (!isKey(key)) return sendNotFound(request, reply);
    if (width !== undefined) {
      const id = `${width}/${key}`;
      const image = made.has(id) ? null : await variants.get(key, width, () => getBuffer(key));
      if (!image && !made.has(id)) return sendNotFound(request, reply);
      if (publicUrl) {
        if (made.size >= 10_000) made.clear();
        made.add(id);
        return reply
          .header('cache-control', UPLOAD_CACHE_CONTROL)
          .redirect(`${publicUrl}/${VARIANTS_PREFIX}/${width}/${key}`, 302);
      }
      return reply
        .header('cache-control', IMMUTABLE_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff')
        .type('image/webp')
        .send(image!);
    }
    if (publicUrl) {
      return reply
        .header('cache-control', UPLOAD_CACHE_CONTROL)
        .redirect(`${publicUrl}/${key}`, 302);
    }
    return stream(key, request, reply);
  }
}

/** Null when the bucket answers to these settings, else what went wrong (logged at start). */
export async function bucketProblem(settings: S3Settings): Promise<string | null> {
  const client = createS3Client(settings);
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    return null;
  } catch (err) {
    const status = statusOf(err);
    return status ? `HTTP ${status} (${(err as Error).name})` : (err as Error).message;
  } finally {
    client.destroy();
  }
}

/** The uploads of this configuration: DATA_DIR/uploads on disk, or the S3 bucket. */
export function createConfiguredStorage(config: Pick<Config, 'storage' | 'dataDir'>): Storage {
  return config.storage.kind === 's3'
    ? createStorage({ blobs: createS3BlobStore(config.storage) })
    : createStorage({ rootDir: join(config.dataDir, 'uploads') });
}
