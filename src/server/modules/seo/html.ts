import { escapeHtml } from '../../platform/mail';

export { escapeHtml };

/** Text safe inside XML (sitemaps): the five predefined entities. */
export const escapeXml = escapeHtml;

/**
 * JSON for a `<script type="application/ld+json">` element. `<`, `>` and `&` become \u escapes, so
 * no `</script>` or `<!--` in a member's text can end the element; U+2028/9 are escaped for old
 * parsers. JSON.parse reads the escapes back as the original characters.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** At most `max` characters, cut at a word boundary with an ellipsis; whitespace collapsed. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}
