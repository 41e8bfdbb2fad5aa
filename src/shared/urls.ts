/**
 * Addresses that members supply (ad images and links, listing covers, post images) end up in
 * other members' pages as <img src> and <a href>. A browser resolves a relative path against our
 * origin, and it undoes `..`, `%2e%2e` and backslashes before asking: `/uploads/../api/me/export`
 * as an image makes every viewer call the API with their own session. So an address is accepted
 * only in its one normal form, and only where it claims to point: an image is exactly the path the
 * storage gives an upload; a link is an absolute https URL, rewritten as the URL parser reads it.
 */

/**
 * The path of an uploaded image, exactly as the storage makes it: '/uploads/', one to four folder
 * segments (letters, digits, '_' and '-', not starting with either), then 32 hex digits and
 * '.webp'. Nothing else fits: no dot segments, no percent escapes, no backslash, query or fragment.
 */
export const UPLOAD_PATH =
  /^\/uploads\/(?:[A-Za-z0-9][A-Za-z0-9_-]{0,63}\/){1,4}[a-f0-9]{32}\.webp$/;

/** The same rule for PostgreSQL's `~` (the migration that cleans stored addresses uses it). */
export const UPLOAD_PATH_SQL =
  '^/uploads/([A-Za-z0-9][A-Za-z0-9_-]{0,63}/){1,4}[a-f0-9]{32}\\.webp$';

export const URL_MAX_LENGTH = 2000;

/** True when `url` is one of our uploaded images, in its only accepted form. */
export function isUploadPath(url: string): boolean {
  return url.length <= URL_MAX_LENGTH && UPLOAD_PATH.test(url);
}

/** True when `url` is an image `userId` uploaded through the cover pipeline. */
export function isOwnCoverUpload(userId: string, url: string): boolean {
  return isUploadPath(url) && url.startsWith(`/uploads/covers/${userId}/`);
}

// Controls, spaces (a parser drops tabs and newlines inside a URL, hiding what it reads) and
// backslashes (read as '/' in http URLs) are refused before parsing.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u009f\\\s]/;

/**
 * An absolute web address in normal form (as the URL parser writes it back), or null: no
 * credentials, a host name with a dot, and only the schemes given (https by default).
 */
export function normalizeWebUrl(
  raw: string,
  schemes: readonly string[] = ['https:'],
): string | null {
  const s = raw.trim();
  if (!s || s.length > URL_MAX_LENGTH || UNSAFE_CHARS.test(s)) return null;
  // An absolute URL with its scheme spelled out: never relative, never scheme-relative ('//x').
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(s)) return null;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  if (!schemes.includes(url.protocol)) return null;
  if (url.username || url.password) return null;
  if (!url.hostname.includes('.') || url.hostname.endsWith('.')) return null;
  const href = url.href;
  return href.length <= URL_MAX_LENGTH ? href : null;
}

/** An absolute https link in normal form, or null. */
export const normalizeHttpsUrl = (raw: string) => normalizeWebUrl(raw);
