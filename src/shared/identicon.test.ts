import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { identiconCells, identiconDataUrl, identiconSvg, initialsOf } from './identicon';

const seed = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('hex');

describe('identiconSvg', () => {
  it('draws the same SVG for the same seed', () => {
    const a = identiconSvg(seed('maria@example.com'), 64);
    expect(identiconSvg(seed('Maria@Example.com'), 64)).toBe(a);
    expect(a).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="64" height="64"/);
    expect(a).toMatch(/<\/svg>$/);
  });

  it('draws different identicons for different seeds', () => {
    const seeds = ['a@x.it', 'b@x.it', 'c@x.it', 'maria@example.com', 'luca@example.com'].map(seed);
    const svgs = new Set(seeds.map((s) => identiconSvg(s, 64)));
    expect(svgs.size).toBe(seeds.length);
  });

  it('is a mirrored 5×5 grid', () => {
    const cells = identiconCells(seed('maria@example.com'));
    expect(cells).toHaveLength(5);
    for (const row of cells) {
      expect(row).toHaveLength(5);
      expect(row[0]).toBe(row[4]);
      expect(row[1]).toBe(row[3]);
    }
    const filled = cells.flat().filter(Boolean).length;
    const svg = identiconSvg(seed('maria@example.com'));
    // One background rect plus one per filled cell.
    expect(svg.match(/<rect /g)).toHaveLength(filled + 1);
  });

  it('uses the requested size and survives odd seeds', () => {
    expect(identiconSvg(seed('x@y.z'), 128)).toContain('width="128" height="128"');
    expect(identiconSvg('', 32)).toContain('<svg');
    expect(identiconSvg('xyz-qrst', 32)).toBe(identiconSvg('', 32));
  });

  it('makes a data URL usable as an image source', () => {
    const url = identiconDataUrl(seed('maria@example.com'), 40);
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(url.split(',')[1])).toBe(identiconSvg(seed('maria@example.com'), 40));
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initialsOf('Maria Rossi')).toBe('MR');
    expect(initialsOf('maria  de  rossi')).toBe('MR');
    expect(initialsOf('mario.rossi')).toBe('MR');
    expect(initialsOf('luca_bianchi@example.com')).toBe('LB');
    expect(initialsOf('luca')).toBe('L');
    expect(initialsOf('élodie durand')).toBe('ÉD');
  });

  it('falls back to a question mark', () => {
    expect(initialsOf('')).toBe('?');
    expect(initialsOf(null)).toBe('?');
    expect(initialsOf('  ...  ')).toBe('?');
  });
});
