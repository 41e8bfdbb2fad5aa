/**
 * Generated book covers for books without an image: the title and author set on a colour and a
 * pattern derived from the book, so the same book looks the same on every visit and on every
 * listing of it. Pure (no DOM, no fonts measured): the text is fitted with a conservative
 * estimate of glyph widths, and every text colour is checked against the surface it sits on
 * (WCAG AA, at least 4.5:1; see cover.test.ts).
 */

export const COVER_WIDTH = 200;
export const COVER_HEIGHT = 300;

/** Widths (px) the server resizes uploaded and catalogue covers to (`?w=`); anything else is 400. */
export const COVER_WIDTHS = [160, 320, 480, 640] as const;
export type CoverWidth = (typeof COVER_WIDTHS)[number];

/** Covers the server can resize: uploads and proxied catalogue covers (not blob: previews). */
export function isResizableCover(url: string): boolean {
  return /^\/(uploads\/|api\/covers\/)/.test(url) && !url.includes('?');
}

/** A cover URL at one of the served widths. */
export const coverAtWidth = (url: string, width: CoverWidth) => `${url}?w=${width}`;

/** The `srcset` of a resizable cover, every served width. */
export const coverSrcSet = (url: string) =>
  COVER_WIDTHS.map((w) => `${coverAtWidth(url, w)} ${w}w`).join(', ');

export interface CoverBook {
  title: string;
  author?: string | null;
}

export const COVER_PATTERNS = [
  'stripes',
  'dots',
  'grid',
  'chevrons',
  'waves',
  'rings',
  'checks',
] as const;
export type CoverPattern = (typeof COVER_PATTERNS)[number];
export type CoverLayout = 'label' | 'band';

export interface CoverDesign {
  layout: CoverLayout;
  pattern: CoverPattern;
  background: string;
  motif: string;
  /** Where the text sits: the label panel, or the plain background of the band layout. */
  surface: string;
  ink: string;
  /** The author's colour, a little softer than the title's but still AA on the surface. */
  softInk: string;
}

/** Whitespace collapsed, case and Unicode form folded: 'Dune ' and 'dune' are one book. */
export function coverSeed(book: CoverBook): string {
  const fold = (s: string | null | undefined) =>
    (s ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
  return `${fold(book.title)}\u0000${fold(book.author)}`;
}

/** FNV-1a, 32 bits, over UTF-16 code units: the same number in every browser and in Node. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A small generator (mulberry32) so one hash yields several independent choices. */
function choices(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) as number;
  };
}

// ---------- colour ----------

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const sat = s / 100;
  const lig = l / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = sat * Math.min(lig, 1 - lig);
  const f = (n: number) => lig - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

const hex = (rgb: [number, number, number]) =>
  `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const hsl = (h: number, s: number, l: number) => hex(hslToRgb(h, s, l));

function luminance(color: string): number {
  const n = Number.parseInt(color.slice(1), 16);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return (
    0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
  );
}

/** WCAG 2 contrast ratio of two '#rrggbb' colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Colours, pattern and layout of a book's cover. */
export function coverDesign(book: CoverBook): CoverDesign {
  const pick = choices(hash32(coverSeed(book)));
  const hue = pick(360);
  const saturation = 35 + pick(4) * 8; // 35–59 %
  const lightness = 24 + pick(4) * 3; // 24–33 %: deep enough for cream text on it
  const layout: CoverLayout = pick(3) === 0 ? 'band' : 'label';
  const pattern = COVER_PATTERNS[pick(COVER_PATTERNS.length)];
  const surfaceAndInks = (l: number) =>
    layout === 'band'
      ? { surface: hsl(hue, saturation, l), ink: hsl(hue, 40, 96), softInk: hsl(hue, 30, 84) }
      : { surface: hsl(hue, 35, 95), ink: hsl(hue, 45, 15), softInk: hsl(hue, 25, 30) };
  // Yellows and greens are bright at the same lightness: darken until both inks pass AA.
  let l = lightness;
  let colours = surfaceAndInks(l);
  while (
    l > 8 &&
    Math.min(
      contrastRatio(colours.ink, colours.surface),
      contrastRatio(colours.softInk, colours.surface),
    ) < 4.6
  ) {
    l -= 2;
    colours = surfaceAndInks(l);
  }
  return {
    layout,
    pattern,
    background: hsl(hue, saturation, l),
    motif: hsl(hue, saturation, l + 12),
    ...colours,
  };
}

// ---------- text ----------

const escapeXml = (s: string) =>
  s
    // Characters XML 1.0 forbids would make the whole SVG unreadable.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Width of a string in ems, erring wide: an overestimate only wraps a line a little early. */
function emWidth(s: string): number {
  let w = 0;
  for (const c of s) {
    if (/[ il.,:;'’!|ìíjtf()[\]]/.test(c)) w += 0.32;
    else if (/[mwMW@]/.test(c)) w += 0.92;
    else if (/[A-Z]/.test(c)) w += 0.72;
    else if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(c))
      w += 1;
    else w += 0.56;
  }
  return w;
}

/** Splits a word wider than the line into pieces that fit. */
function breakWord(word: string, maxEm: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const c of word) {
    if (piece && emWidth(piece + c) > maxEm) {
      pieces.push(piece);
      piece = c;
    } else piece += c;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/**
 * Greedy word wrap into at most `maxLines` lines of `maxEm` ems; text that does not fit ends
 * the last line with an ellipsis. `fits` is false when anything was cut.
 */
export function wrapText(
  text: string,
  maxEm: number,
  maxLines: number,
): { lines: string[]; fits: boolean } {
  const words = text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => breakWord(w, maxEm));
  const lines: string[] = [];
  let line = '';
  let i = 0;
  for (; i < words.length; i++) {
    const next = line ? `${line} ${words[i]}` : words[i];
    if (emWidth(next) <= maxEm) {
      line = next;
      continue;
    }
    lines.push(line);
    line = words[i];
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && line) {
    lines.push(line);
    line = '';
  }
  const fits = i >= words.length && !line;
  if (!fits && lines.length) {
    let last = lines[lines.length - 1];
    while (last && emWidth(`${last}…`) > maxEm) last = Array.from(last).slice(0, -1).join('');
    lines[lines.length - 1] = `${last.trimEnd()}…`;
  }
  return { lines, fits };
}

const TITLE_SIZES = [26, 22, 19, 16];
const LINE_HEIGHT = 1.18;
const AUTHOR_SIZE = 13;

/**
 * The largest title size whose lines fit the box without splitting a word; the smallest, with
 * words split or the end cut with an ellipsis, else.
 */
function fitTitle(title: string, width: number, height: number) {
  const longestWord = Math.max(0, ...title.split(/\s+/).map(emWidth));
  for (const size of TITLE_SIZES) {
    if (longestWord > width / size) continue;
    const maxLines = Math.max(1, Math.floor(height / (size * LINE_HEIGHT)));
    const wrapped = wrapText(title, width / size, maxLines);
    if (wrapped.fits) return { size, lines: wrapped.lines };
  }
  const size = TITLE_SIZES[TITLE_SIZES.length - 1];
  const maxLines = Math.max(1, Math.floor(height / (size * LINE_HEIGHT)));
  return { size, lines: wrapText(title, width / size, maxLines).lines };
}

function textBlock(
  lines: string[],
  x: number,
  firstBaseline: number,
  size: number,
  attrs: string,
): string {
  const step = Math.round(size * LINE_HEIGHT * 10) / 10;
  const spans = lines
    .map((l, i) => `<tspan x="${x}" y="${firstBaseline + i * step}">${escapeXml(l)}</tspan>`)
    .join('');
  return `<text font-size="${size}" ${attrs}>${spans}</text>`;
}

// ---------- patterns ----------

function patternTile(pattern: CoverPattern, motif: string, id: string): string {
  const tile = (w: number, h: number, body: string, extra = '') =>
    `<pattern id="${id}" width="${w}" height="${h}" patternUnits="userSpaceOnUse"${extra}>${body}</pattern>`;
  switch (pattern) {
    case 'stripes':
      return tile(
        14,
        14,
        `<rect width="6" height="14" fill="${motif}"/>`,
        ' patternTransform="rotate(45)"',
      );
    case 'dots':
      return tile(14, 14, `<circle cx="7" cy="7" r="2.6" fill="${motif}"/>`);
    case 'grid':
      return tile(
        20,
        20,
        `<path d="M20 0H0V20" fill="none" stroke="${motif}" stroke-width="2.5"/>`,
      );
    case 'chevrons':
      return tile(
        24,
        14,
        `<path d="M0 12L12 3L24 12" fill="none" stroke="${motif}" stroke-width="3"/>`,
      );
    case 'waves':
      return tile(
        40,
        16,
        `<path d="M0 8Q10 0 20 8T40 8" fill="none" stroke="${motif}" stroke-width="2.5"/>`,
      );
    case 'rings':
      return tile(
        30,
        30,
        `<circle cx="15" cy="15" r="9" fill="none" stroke="${motif}" stroke-width="2.5"/>`,
      );
    case 'checks':
      return tile(
        24,
        24,
        `<rect width="12" height="12" fill="${motif}"/><rect x="12" y="12" width="12" height="12" fill="${motif}"/>`,
      );
  }
}

const SERIF = `font-family="Georgia,'Times New Roman',serif"`;
const SANS = `font-family="'Helvetica Neue',Arial,sans-serif"`;

/**
 * The cover as an SVG document (200×300 view box, scales to any size). `label`: the pattern
 * everywhere and the text on a light panel; `band`: the text on the plain colour, the pattern
 * in a band at the foot.
 */
export function coverSvg(book: CoverBook): string {
  const d = coverDesign(book);
  // Unique per book: inline SVGs share the page's id space, and url(#id) takes the first match.
  const id = `cv${hash32(coverSeed(book)).toString(36)}`;
  const title = book.title.trim() || '…';
  const author = (book.author ?? '').trim();
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}">`,
    `<title>${escapeXml(author ? `${title} · ${author}` : title)}</title>`,
    `<defs>${patternTile(d.pattern, d.motif, id)}</defs>`,
    `<rect width="200" height="300" fill="${d.background}"/>`,
  ];
  let box: { x: number; y: number; w: number; h: number };
  if (d.layout === 'label') {
    parts.push(`<rect width="200" height="300" fill="url(#${id})"/>`);
    parts.push(`<rect x="16" y="52" width="168" height="196" rx="3" fill="${d.surface}"/>`);
    box = { x: 30, y: 66, w: 140, h: 168 };
  } else {
    parts.push(`<rect y="236" width="200" height="64" fill="url(#${id})"/>`);
    parts.push(`<rect y="232" width="200" height="4" fill="${d.motif}"/>`);
    box = { x: 20, y: 32, w: 160, h: 184 };
  }
  const authorLines = author ? wrapText(author, box.w / AUTHOR_SIZE, 2).lines : [];
  const authorHeight = authorLines.length ? authorLines.length * AUTHOR_SIZE * LINE_HEIGHT + 14 : 0;
  const fitted = fitTitle(title, box.w, box.h - authorHeight);
  parts.push(
    textBlock(fitted.lines, box.x, box.y + fitted.size, fitted.size, `${SERIF} fill="${d.ink}"`),
  );
  if (authorLines.length) {
    const step = AUTHOR_SIZE * LINE_HEIGHT;
    const firstBaseline = Math.round(box.y + box.h - (authorLines.length - 1) * step - 3);
    parts.push(
      `<rect x="${box.x}" y="${firstBaseline - AUTHOR_SIZE - 10}" width="28" height="2" fill="${d.softInk}"/>`,
      textBlock(authorLines, box.x, firstBaseline, AUTHOR_SIZE, `${SANS} fill="${d.softInk}"`),
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

/**
 * The cover as a data: URL for an <img src> (the CSP allows data: images). Only the characters
 * a URL cannot carry are escaped: a third shorter than encodeURIComponent.
 */
export function coverDataUrl(book: CoverBook): string {
  const svg = coverSvg(book).replace(/[%#<>"\s]/g, (c) =>
    c === ' ' ? ' ' : encodeURIComponent(c),
  );
  return `data:image/svg+xml;charset=utf-8,${svg}`;
}
