import { describe, expect, it } from 'vitest';
import { isOwnCoverUpload, isUploadPath, normalizeHttpsUrl, normalizeWebUrl } from './urls';

const FILE = '0123456789abcdef0123456789abcdef.webp';

describe('an uploaded image', () => {
  it('is exactly the path the storage gives an upload', () => {
    expect(isUploadPath(`/uploads/covers/u1/${FILE}`)).toBe(true);
    expect(isUploadPath(`/uploads/avatars/${FILE}`)).toBe(true);
  });

  it('refuses every path a browser would resolve somewhere else', () => {
    for (const url of [
      '/uploads/../api/me/export',
      `/uploads/covers/../../api/me/export/${FILE}`,
      '/uploads/%2e%2e/api/me/export',
      `/uploads/%2e%2e/api/${FILE}`,
      '/uploads/..%2fapi',
      `/uploads/covers%2f..%2f..%2fapi/${FILE}`,
      `/uploads/./covers/${FILE}`,
      `/uploads\\..\\api/${FILE}`,
      '\\\\evil.example/x.png',
      '\\evil',
      '//evil.example/x.png',
      `//evil.example/uploads/covers/u/${FILE}`,
      `https://evil.example/uploads/covers/u/${FILE}`,
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      `/uploads/covers/u/${FILE}?x=1`,
      `/uploads/covers/u/${FILE}#x`,
      `/uploads/covers/u/${FILE}\u0000`,
      ` /uploads/covers/u/${FILE}`,
      `/uploads/covers/u/${FILE.toUpperCase()}`,
      `/api/covers/u/${FILE}`,
      `/uploads/${FILE}`,
      `/uploads/a/b/c/d/e/${FILE}`,
      '',
    ]) {
      expect(isUploadPath(url), url).toBe(false);
    }
  });

  it('belongs to a member only under their own folder', () => {
    expect(isOwnCoverUpload('u1', `/uploads/covers/u1/${FILE}`)).toBe(true);
    expect(isOwnCoverUpload('u1', `/uploads/covers/u2/${FILE}`)).toBe(false);
    expect(isOwnCoverUpload('u1', `/uploads/covers/u1/x/../${FILE}`)).toBe(false);
  });
});

describe('a link', () => {
  it('is an absolute https URL, given back in normal form', () => {
    expect(normalizeHttpsUrl('https://www.amazon.it/dp/88')).toBe('https://www.amazon.it/dp/88');
    expect(normalizeHttpsUrl('  HTTPS://Example.ORG  ')).toBe('https://example.org/');
    expect(normalizeHttpsUrl('https://example.org/a/../b/%2e%2e/c')).toBe('https://example.org/c');
    expect(normalizeHttpsUrl('https://example.org:443/x?q=1#f')).toBe(
      'https://example.org/x?q=1#f',
    );
  });

  it('refuses other schemes, credentials, relative and disguised addresses', () => {
    for (const url of [
      'http://example.org/x',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'https:example.org',
      'https:/example.org',
      '//evil.example/x',
      '/uploads/../api/me/export',
      '\\\\evil.example',
      'https://user:pw@example.org/',
      'https://example.org@evil.example/',
      'https://evil.example\\@example.org/',
      'https://exa mple.org/',
      'https://example.org/\u0000',
      'https://localhost/',
      'https://[::1]/',
      'ftp://example.org/x',
      `https://example.org/${'x'.repeat(2000)}`,
    ]) {
      expect(normalizeHttpsUrl(url), url).toBeNull();
    }
  });

  it('may allow http where a caller says so (catalogue covers)', () => {
    expect(normalizeWebUrl('http://books.google.com/x', ['https:', 'http:'])).toBe(
      'http://books.google.com/x',
    );
    expect(normalizeWebUrl('javascript:alert(1)', ['https:', 'http:'])).toBeNull();
  });
});
