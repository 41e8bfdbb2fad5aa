import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript, truncate } from './html';

describe('escaping', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('keeps JSON-LD inside its script element and readable by JSON.parse', () => {
    const value = { name: '</script><script>alert(1)</script>', note: '<!-- & \u2028' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('cuts long descriptions at a word', () => {
    expect(truncate('uno due  tre\nquattro', 100)).toBe('uno due tre quattro');
    const cut = truncate('parola '.repeat(50), 40);
    expect(cut.length).toBeLessThanOrEqual(40);
    expect(cut.endsWith('parola…')).toBe(true);
  });
});
