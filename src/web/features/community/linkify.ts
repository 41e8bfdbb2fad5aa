/**
 * Splits member-written text into plain text and web links, so a post renders as text nodes and
 * anchors built by React: nothing a member types is ever parsed as HTML. Only http(s) addresses
 * (and www. ones, given https) become links; `javascript:`, `data:` and the like stay text.
 */
export type TextPart =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// A run of non-space characters starting with a scheme or www.; trailing punctuation is trimmed below.
const CANDIDATE = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi;
const TRAILING = /[.,;:!?'"»)\]}]+$/;

function balanceParentheses(url: string): string {
  // "(see https://it.wikipedia.org/wiki/Foo_(bar))": keep the ) that closes one inside the URL.
  let out = url;
  while (out.endsWith(')')) {
    const open = (out.match(/\(/g) ?? []).length;
    const close = (out.match(/\)/g) ?? []).length;
    if (close <= open) break;
    out = out.slice(0, -1);
  }
  return out;
}

/** A safe absolute href for a candidate, or null when it is not a web address. */
export function safeHref(candidate: string): string | null {
  const withScheme = /^www\./i.test(candidate) ? `https://${candidate}` : candidate;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname || !url.hostname.includes('.')) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index ?? 0;
    let raw = match[0];
    // Strip trailing punctuation, then give back a ) that closes a ( inside the address.
    const stripped = raw.replace(TRAILING, '');
    const tail = raw.slice(stripped.length);
    raw = stripped;
    if (tail.startsWith(')')) {
      let candidate = raw;
      for (const ch of tail) {
        if (ch !== ')') break;
        candidate += ch;
      }
      raw = balanceParentheses(candidate);
    }
    const href = safeHref(raw);
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
