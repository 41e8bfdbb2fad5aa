import { describe, expect, it } from 'vitest';
import { dashboardPath, safeRedirectPath } from './safeRedirect';

describe('safeRedirectPath', () => {
  it('keeps same-origin paths with their query and hash', () => {
    expect(safeRedirectPath('/profile/abc/settings')).toBe('/profile/abc/settings');
    expect(safeRedirectPath('/library/book/42?tab=chat#top')).toBe('/library/book/42?tab=chat#top');
    expect(safeRedirectPath('/')).toBe('/');
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeRedirectPath('/a/../b')).toBe('/b');
    expect(safeRedirectPath('/../../etc')).toBe('/etc');
  });

  it.each([
    null,
    undefined,
    '',
    'profile',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '/\\/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /profile',
    '/a\\b',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (value) => {
    expect(safeRedirectPath(value)).toBeNull();
  });
});

describe('dashboardPath', () => {
  it('is the private area dashboard of the user', () => {
    expect(dashboardPath('u1')).toBe('/profile/u1/dashboard');
  });
});
