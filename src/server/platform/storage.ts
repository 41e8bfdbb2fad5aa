import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import sharp from 'sharp';
import { STORAGE_CACHE_SECONDS } from '@shared/constants';
import { COVER_WIDTHS, type CoverWidth } from '@shared/cover';
import { AppError, sendNotFound, validationFailed } from './errors';
import { IMMUTABLE_CACHE_CONTROL } from './http-cache';

/** Where stored files are published. Locally served files live under this path. */
export const UPLOADS_PREFIX = '/uploads';

export interface SaveImageOptions {
  /** 'avatars' or 'covers/<userId>': one to four segments of letters, digits, '_' and '-'. */
  folder: string;
  buffer: Buffer;
  /** Larger inputs are refused with 413 'profile.errors.fileTooLarge'. */
  maxBytes: number;
  /** The image is scaled down (never up) to fit inside this box. */
  maxWidth: number;
  maxHeight: number;
}

export interface StoredImage {
  /** Public URL, e.g. '/uploads/avatars/3f…9a.webp'. */
  url: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * Blob storage for uploaded images. The image pipeline (validate, orient, resize, re-encode,
 * strip metadata) is the same for every backend; a backend only keeps bytes under a key and
 * maps keys to public URLs. Local disk (below) is the default; the S3-compatible backend is in
 * storage-s3.ts (createConfiguredStorage picks one from the configuration).
 */
export interface Storage {
  saveImage(options: SaveImageOptions): Promise<StoredImage>;
  /** Removes a file this storage handed out. Unknown or foreign URLs are ignored (false). */
  delete(url: string): Promise<boolean>;
  /** Removes a whole folder ('covers/<userId>') and everything in it; absent is fine. */
  deleteFolder(folder: string): Promise<void>;
  /** Serves the stored files when they live on this machine (no-op for remote backends). */
  register(app: FastifyInstance): Promise<void>;
}

export interface BlobStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  remove(key: string): Promise<boolean>;
  removeFolder(folder: string): Promise<void>;
  urlFor(key: string): string;
  /** The key behind a URL this store produced, or null. */
  keyOf(url: string): string | null;
  register(app: FastifyInstance): Promise<void>;
}

/** Formats accepted by content, whatever the file's name or declared type says. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif']);
/** Decoded size guard against decompression bombs (a small PNG of gigantic dimensions). */
const MAX_INPUT_PIXELS = 100_000_000;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const FILE_NAME = /^[a-f0-9]{32}\.webp$/;

export const invalidFileType = () =>
  new AppError(400, 'invalid_file_type', 'profile.errors.invalidFileType');
export const fileTooLarge = () =>
  new AppError(413, 'payload_too_large', 'profile.errors.fileTooLarge');
export const imageTooLarge = () =>
  new AppError(413, 'payload_too_large', 'profile.errors.imageTooLarge');
/**
 * 503 (nothing was stored: the client may try again, a proxy may resend it elsewhere): the
 * place the files are kept did not answer (the bucket is down or unreachable, the disk refused
 * the write). `cause` is what it said, for the log.
 */
export function storageUnavailable(cause: unknown): AppError {
  const err = new AppError(503, 'storage_unavailable', 'errors.storageUnavailable');
  err.cause = cause;
  return err;
}

export function checkFolder(folder: string): string[] {
  const segments = folder.split('/');
  if (segments.length < 1 || segments.length > 4 || !segments.every((s) => SEGMENT.test(s))) {
    throw new Error(`invalid storage folder: ${JSON.stringify(folder)}`);
  }
  return segments;
}

export function isKey(key: string): boolean {
  const parts = key.split('/');
  const file = parts.pop() ?? '';
  return (
    FILE_NAME.test(file) &&
    parts.length >= 1 &&
    parts.length <= 4 &&
    parts.every((s) => SEGMENT.test(s))
  );
}

/** The format by content (from the header only, nothing is decoded yet) and the pixel count. */
async function inspect(buffer: Buffer): Promise<{ format?: string; pixels: number }> {
  try {
    const meta = await sharp(buffer, { limitInputPixels: false }).metadata();
    // AVIF is reported as HEIF with AV1 compression; HEVC-coded HEIF (HEIC) is not supported.
    const format =
      meta.format === 'heif' ? (meta.compression === 'av1' ? 'avif' : 'heic') : meta.format;
    return { format, pixels: (meta.width ?? 0) * (meta.height ?? 0) };
  } catch {
    throw invalidFileType();
  }
}

/** Validates by content and re-encodes to WebP without any metadata (EXIF, GPS, XMP, ICC). */
export async function processImage(
  options: Omit<SaveImageOptions, 'folder'>,
): Promise<{ data: Buffer; width: number; height: number }> {
  const { buffer, maxBytes, maxWidth, maxHeight } = options;
  if (buffer.length > maxBytes) throw fileTooLarge();
  if (buffer.length === 0) throw invalidFileType();
  const { format, pixels } = await inspect(buffer);
  if (!format || !ACCEPTED_FORMATS.has(format)) throw invalidFileType();
  if (pixels > MAX_INPUT_PIXELS) throw imageTooLarge();
  try {
    const { data, info } = await sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate() // apply the EXIF orientation before the EXIF block is dropped
      .resize({ width: maxWidth, height: maxHeight, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    // Corrupt or truncated data that passed the header check.
    throw invalidFileType();
  }
}

// ---------- width variants ----------

/** The `w` query parameter: absent (the original), or one of COVER_WIDTHS, else 400. */
export function parseWidth(value: unknown): CoverWidth | undefined {
  if (value === undefined) return undefined;
  const width = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(COVER_WIDTHS as readonly number[]).includes(width)) {
    throw validationFailed({ w: 'covers.errors.width' });
  }
  return width as CoverWidth;
}

/** Writes beside the target and renames: readers never see a half-written file. */
export async function writeAtomically(path: string, body: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
  try {
    await writeFile(temp, body, { mode: 0o644 });
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

export interface WidthVariants {
  /**
   * `name` (a relative path the caller has validated) at `width` as WebP, never enlarged:
   * resized once from `source()` and kept on disk; null when there is no source.
   */
  get(
    name: string,
    width: CoverWidth,
    source: () => Promise<Buffer | null>,
  ): Promise<Buffer | null>;
  /** Forgets every width of `name` (its original was deleted). */
  remove(name: string): Promise<void>;
  /** Forgets every width of everything under `folder`. */
  removeFolder(folder: string): Promise<void>;
}

/** Where made widths are kept, each under `<width>/<name>`: a folder on disk, or the bucket. */
export interface VariantShelf {
  read(path: string): Promise<Buffer | null>;
  write(path: string, body: Buffer): Promise<void>;
  remove(paths: string[]): Promise<void>;
  /** Removes everything under each of these folders. */
  removeFolders(folders: string[]): Promise<void>;
}

function diskShelf(dir: string): VariantShelf {
  const pathOf = (path: string) => join(dir, ...path.split('/'));
  return {
    read: (path) => readIfExists(pathOf(path)),
    write: (path, body) => writeAtomically(pathOf(path), body),
    async remove(paths) {
      await Promise.all(paths.map((p) => unlink(pathOf(p)).catch(() => {})));
    },
    async removeFolders(folders) {
      await Promise.all(folders.map((f) => rm(pathOf(f), { recursive: true, force: true })));
    },
  };
}

export function createWidthVariants(where: string | VariantShelf): WidthVariants {
  const shelf = typeof where === 'string' ? diskShelf(where) : where;
  const inFlight = new Map<string, Promise<Buffer | null>>();
  const pathOf = (name: string, width: number) => `${width}/${name}`;
  async function make(name: string, width: CoverWidth, source: () => Promise<Buffer | null>) {
    const path = pathOf(name, width);
    const made = await shelf.read(path).catch(() => null);
    if (made) return made;
    const original = await source();
    if (!original) return null;
    const resized = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 78, effort: 4 })
      .toBuffer();
    await shelf.write(path, resized);
    return resized;
  }
  return {
    get(name, width, source) {
      const id = `${width}/${name}`;
      const pending = inFlight.get(id);
      if (pending) return pending;
      const p = make(name, width, source).finally(() => inFlight.delete(id));
      inFlight.set(id, p);
      return p;
    },
    remove: (name) => shelf.remove(COVER_WIDTHS.map((w) => pathOf(name, w))),
    removeFolder: (folder) => shelf.removeFolders(COVER_WIDTHS.map((w) => pathOf(folder, w))),
  };
}

const readIfExists = async (path: string) => {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
};

export function createLocalBlobStore(rootDir: string): BlobStore {
  const root = resolve(rootDir);
  const pathOf = (key: string) => {
    if (!isKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    const path = resolve(root, ...key.split('/'));
    const rel = relative(root, path);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new Error('key outside storage');
    return path;
  };
  // A dot folder: fastify-static denies dotfiles, so variants are reached only through `?w=`.
  const variants = createWidthVariants(join(root, '.sized'));
  return {
    async put(key, body) {
      await writeAtomically(pathOf(key), body);
    },
    async remove(key) {
      await variants.remove(key);
      try {
        await unlink(pathOf(key));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
    async removeFolder(folder) {
      const path = resolve(root, ...checkFolder(folder));
      const rel = relative(root, path);
      if (!rel || rel.startsWith('..') || isAbsolute(rel))
        throw new Error('folder outside storage');
      await variants.removeFolder(folder);
      await rm(path, { recursive: true, force: true });
    },
    urlFor: (key) => `${UPLOADS_PREFIX}/${key}`,
    keyOf(url) {
      if (!url.startsWith(`${UPLOADS_PREFIX}/`)) return null;
      const key = url.slice(UPLOADS_PREFIX.length + 1);
      return isKey(key) ? key : null;
    },
    async register(app) {
      await mkdir(root, { recursive: true });
      await app.register(
        async (scope) => {
          // A missing upload is a 404, not the single-page app.
          scope.setNotFoundHandler((request, reply) => sendNotFound(request, reply));
          // `?w=` asks for the image at one of the cover widths, made once and kept on disk.
          scope.addHook('onRequest', async (request, reply) => {
            const width = parseWidth((request.query as Record<string, unknown>).w);
            if (width === undefined) return;
            const key = request.url.split('?')[0].slice(UPLOADS_PREFIX.length + 1);
            const image = isKey(key)
              ? await variants.get(key, width, () => readIfExists(pathOf(key)))
              : null;
            if (!image) return sendNotFound(request, reply);
            // Upload keys are random and never reused: the bytes behind this URL never change.
            return reply
              .header('cache-control', IMMUTABLE_CACHE_CONTROL)
              .header('x-content-type-options', 'nosniff')
              .type('image/webp')
              .send(image);
          });
          await scope.register(fastifyStatic, {
            root,
            prefix: '/',
            decorateReply: false,
            index: false,
            dotfiles: 'deny',
            redirect: false,
            cacheControl: false,
            setHeaders(res) {
              res.setHeader('cache-control', `public, max-age=${STORAGE_CACHE_SECONDS}`);
              res.setHeader('x-content-type-options', 'nosniff');
            },
          });
        },
        { prefix: UPLOADS_PREFIX },
      );
    },
  };
}

export function createStorage(options: { rootDir: string } | { blobs: BlobStore }): Storage {
  const blobs = 'blobs' in options ? options.blobs : createLocalBlobStore(options.rootDir);
  return {
    async saveImage({ folder, ...image }) {
      const segments = checkFolder(folder);
      const { data, width, height } = await processImage(image);
      const key = [...segments, `${randomBytes(16).toString('hex')}.webp`].join('/');
      try {
        await blobs.put(key, data, 'image/webp');
      } catch (err) {
        throw storageUnavailable(err);
      }
      return { url: blobs.urlFor(key), width, height, bytes: data.length };
    },
    async delete(url) {
      const key = blobs.keyOf(url);
      return key ? blobs.remove(key) : false;
    },
    deleteFolder: (folder) => blobs.removeFolder(folder),
    register: (app) => blobs.register(app),
  };
}
