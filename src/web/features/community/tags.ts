// The tags box of the post dialog: one comma-separated line, read as the server reads tags.

/** "a, #b ,, A" → ['a', 'b']: trimmed, a leading # dropped, empties and repeats dropped. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(',')
    .map((s) => s.trim().replace(/^#+/, '').trim())
    .filter((tag) => {
      const key = tag.toLowerCase();
      if (!tag || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
