import { describe, expect, it } from 'vitest';
import { safeHref, splitLinks } from './linkify';

describe('splitLinks', () => {
  it('keeps plain text as one part', () => {
    expect(splitLinks('Un libro bellissimo.\nDa leggere.')).toEqual([
      { kind: 'text', text: 'Un libro bellissimo.\nDa leggere.' },
    ]);
  });

  it('finds http(s) and www. links and leaves trailing punctuation outside', () => {
    expect(splitLinks('Vedi https://example.org/a?b=1, e www.libri.it.')).toEqual([
      { kind: 'text', text: 'Vedi ' },
      { kind: 'link', text: 'https://example.org/a?b=1', href: 'https://example.org/a?b=1' },
      { kind: 'text', text: ', e ' },
      { kind: 'link', text: 'www.libri.it', href: 'https://www.libri.it/' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('keeps a closing parenthesis that belongs to the address', () => {
    const parts = splitLinks('(see https://en.wikipedia.org/wiki/Foo_(bar))');
    expect(parts[1]).toEqual({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Foo_(bar)',
      href: 'https://en.wikipedia.org/wiki/Foo_(bar)',
    });
    expect(parts[2]).toEqual({ kind: 'text', text: ')' });
  });

  it('never turns script or data addresses into links', () => {
    for (const text of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '<a href="javascript:alert(1)">x</a>',
      'vbscript:msgbox(1)',
    ])
      expect(splitLinks(text).every((p) => p.kind === 'text')).toBe(true);
  });

  it('stops a link at markup characters', () => {
    const parts = splitLinks('<img src=x onerror=alert(1)>https://a.example/"onmouseover=x');
    const link = parts.find((p) => p.kind === 'link');
    expect(link).toEqual({ kind: 'link', text: 'https://a.example/', href: 'https://a.example/' });
  });
});

describe('safeHref', () => {
  it('accepts web addresses only', () => {
    expect(safeHref('https://x.org')).toBe('https://x.org/');
    expect(safeHref('http://localhost')).toBeNull();
    expect(safeHref('ftp://x.org')).toBeNull();
  });
});
