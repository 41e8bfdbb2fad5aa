import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  contrastRatio,
  coverDataUrl,
  coverDesign,
  coverSeed,
  coverSvg,
  wrapText,
  COVER_PATTERNS,
} from './cover';

const eco = { title: 'Il nome della rosa', author: 'Umberto Eco' };

/** Titles enough to visit every hue, layout and pattern. */
const manyBooks = Array.from({ length: 3000 }, (_, i) => ({
  title: `Libro numero ${i}`,
  author: `Autore ${i % 97}`,
}));

describe('coverSvg', () => {
  it('draws the same cover for the same book, however the title is spaced or cased', () => {
    const svg = coverSvg(eco);
    expect(coverSvg({ ...eco })).toBe(svg);
    expect(coverDesign({ title: ' Il nome  della Rosa', author: 'umberto eco' })).toEqual(
      coverDesign(eco),
    );
    expect(coverSeed(eco)).toBe(
      coverSeed({ title: 'IL NOME DELLA ROSA ', author: 'Umberto  Eco' }),
    );
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('gives different books different covers, across every pattern and both layouts', () => {
    const designs = manyBooks.map(coverDesign);
    expect(new Set(designs.map((d) => d.pattern))).toEqual(new Set(COVER_PATTERNS));
    expect(new Set(designs.map((d) => d.layout))).toEqual(new Set(['label', 'band']));
    expect(new Set(designs.map((d) => d.background)).size).toBeGreaterThan(500);
    expect(coverSvg({ title: 'Dune', author: 'Frank Herbert' })).not.toBe(coverSvg(eco));
  });

  it('keeps every text colour at least 4.5:1 against the surface it is set on (WCAG AA)', () => {
    let worst = 21;
    for (const book of manyBooks) {
      const d = coverDesign(book);
      worst = Math.min(worst, contrastRatio(d.ink, d.surface), contrastRatio(d.softInk, d.surface));
    }
    expect(worst).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('prints the title and the author, escaped, in a well-formed document', async () => {
    const svg = coverSvg({ title: '<script>alert("x")</script> & co', author: "O'Brien\u0007" });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; co');
    expect(svg).toContain('O&#39;Brien');
    expect(svg).not.toContain('\u0007');
    // A real SVG renderer accepts it: a syntax error would throw here.
    const meta = await sharp(Buffer.from(svg)).metadata();
    expect(meta).toMatchObject({ format: 'svg', width: 200, height: 300 });
  });

  it('wraps long titles and ends the last line with an ellipsis when they do not fit', () => {
    const long = 'Perché le nazioni falliscono. '.repeat(8);
    const svg = coverSvg({ title: long, author: 'Daron Acemoglu, James A. Robinson' });
    const lines = [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.some((l) => l.endsWith('…'))).toBe(true);
    expect(svg).toContain('Daron Acemoglu,');
  });

  it('prefers a smaller size to splitting a word', () => {
    const svg = coverSvg({ title: 'Introduction to Algorithms', author: 'Thomas H. Cormen' });
    const lines = [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
    const words = lines.flatMap((l) => l.split(' '));
    expect(words).toContain('Introduction');
    expect(words).toContain('Algorithms');
    expect(lines.join(' ')).toContain('Introduction to Algorithms');
  });

  it('breaks a single word too long for the line', () => {
    const { lines, fits } = wrapText('Supercalifragilisticexpialidocious', 8, 6);
    expect(fits).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('Supercalifragilisticexpialidocious');
    const cut = wrapText('one two three four five six seven', 5, 2);
    expect(cut.fits).toBe(false);
    expect(cut.lines).toHaveLength(2);
    expect(cut.lines[1].endsWith('…')).toBe(true);
  });

  it('draws a book without an author, or with an empty title', () => {
    expect(coverSvg({ title: 'Gomorra' })).toContain('Gomorra');
    expect(coverSvg({ title: '  ', author: null })).toContain('…');
  });

  it('is a data: URL of the same SVG', () => {
    const url = coverDataUrl(eco);
    expect(url.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(coverSvg(eco));
  });
});
