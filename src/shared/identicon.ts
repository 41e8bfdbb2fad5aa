/**
 * Avatar fallbacks drawn locally: the uploaded picture, else an identicon, else initials. The seed
 * is Me.avatarSeed, a sha-256 hex derived from the member's id (avatarSeedOf on the server), so no
 * e-mail is hashed and no remote service is asked.
 */

const GRID = 5;

function nibbles(seedHex: string): number[] {
  const clean = seedHex.toLowerCase().replace(/[^0-9a-f]/g, '');
  // A short or empty seed still draws something stable.
  const hex = (clean || '0').padEnd(32, clean || '0');
  return Array.from(hex, (c) => Number.parseInt(c, 16));
}

/** Which cells are filled: 15 nibbles decide the left three columns, mirrored to the right. */
export function identiconCells(seedHex: string): boolean[][] {
  const n = nibbles(seedHex);
  const half = Math.ceil(GRID / 2);
  return Array.from({ length: GRID }, (_, row) =>
    Array.from({ length: GRID }, (_, col) => {
      const source = col < half ? col : GRID - 1 - col;
      return n[row * half + source] % 2 === 0;
    }),
  );
}

/** The foreground colour: hue from the seed's tail, saturation and lightness readable on white. */
export function identiconColor(seedHex: string): string {
  const n = nibbles(seedHex);
  const tail = n.slice(-7);
  const hue = Math.round(((tail[0] * 4096 + tail[1] * 256 + tail[2] * 16 + tail[3]) / 65535) * 360);
  const saturation = 45 + (tail[4] % 4) * 5;
  const lightness = 38 + (tail[5] % 4) * 3;
  return `hsl(${hue} ${saturation}% ${lightness}%)`;
}

/** A deterministic 5×5 mirrored identicon as an SVG document. */
export function identiconSvg(seedHex: string, size = 64): string {
  const px = Math.max(1, Math.round(size));
  const cells = identiconCells(seedHex);
  const rects: string[] = [];
  cells.forEach((row, y) =>
    row.forEach((filled, x) => {
      // +0.5: a quarter-cell margin on each side of the 6×6 view box.
      if (filled) rects.push(`<rect x="${x + 0.5}" y="${y + 0.5}" width="1" height="1"/>`);
    }),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 6 6" shape-rendering="crispEdges">` +
    `<rect width="6" height="6" fill="#f1f3f5"/>` +
    `<g fill="${identiconColor(seedHex)}">${rects.join('')}</g></svg>`
  );
}

/** The identicon as a data: URL for an <img src> (the CSP allows data: images). */
export function identiconDataUrl(seedHex: string, size = 64): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(identiconSvg(seedHex, size))}`;
}

/** Up to two initials: 'Maria Rossi' → 'MR', 'mario.rossi' → 'MR', 'luca' → 'L', '' → '?'. */
export function initialsOf(name: string | null | undefined): string {
  const local = (name ?? '').split('@')[0];
  const parts = local
    .split(/[\s._\-+]+/u)
    .map((part) => part.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);
  if (parts.length === 0) return '?';
  const first = Array.from(parts[0])[0];
  const last = parts.length > 1 ? Array.from(parts[parts.length - 1])[0] : '';
  return (first + last).toLocaleUpperCase();
}
