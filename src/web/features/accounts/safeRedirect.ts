const BASE = 'http://scaffale.invalid';

/**
 * A `redirect_to` value is honoured only when it is a path of this site: it starts with a single
 * '/', not '//' or '/\' (both mean "another host" to a browser), has no scheme and no control or
 * white-space characters (the URL parser drops tabs and newlines, so '/\t/evil.example' would
 * become '//evil.example'). Returns the normalised path, or null.
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || ch === '\\' || /\s/.test(ch)) return null;
  }
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where a member lands after signing in when no (safe) return path was given. */
export function dashboardPath(userId: string): string {
  return `/profile/${encodeURIComponent(userId)}/dashboard`;
}
