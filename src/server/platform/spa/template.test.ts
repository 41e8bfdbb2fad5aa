import { describe, expect, it } from 'vitest';
import { parseTemplate } from './template';
import { FIXTURE_INDEX } from './web.fixture';

describe('the index.html template', () => {
  it('replaces the build’s title, description and social tags, whatever their order', () => {
    const html = FIXTURE_INDEX.replace(
      '<title>Scaffale</title>',
      `<meta content="old" name="description">
    <meta property="og:title" content="old" />
    <link href="/old" rel="canonical">
    <title>Scaffale</title>`,
    );
    const out = parseTemplate(html).render('<title>Nuovo</title>', 'en');
    expect(out).not.toContain('old');
    expect(out).not.toContain("The build's own description");
    expect(out.match(/<title>/g)).toEqual(['<title>']);
    expect(out).toContain('<html lang="en">');
    expect(out).toContain('<script type="module" crossorigin src="/assets/index-Ab12Cd34.js">');
    expect(out.indexOf('<meta charset="UTF-8" />')).toBeLessThan(out.indexOf('<title>Nuovo'));
  });

  it('puts the head before </head> and adds a language when the build has neither', () => {
    const out = parseTemplate(
      '<html><head><meta charset="UTF-8"></head><body></body></html>',
    ).render('<title>T</title>', 'it');
    expect(out).toMatch(
      /^<html lang="it"><head><meta charset="UTF-8"><title>T<\/title>\s*<\/head>/,
    );
  });
});

describe('markup at the end of the body', () => {
  it('goes after the app’s root and before </body>, and only when given', () => {
    const template = parseTemplate(FIXTURE_INDEX);
    const out = template.render('<title>T</title>', 'it', '<div id="cc-main">$& $1</div>');
    // Written as given: no replacement patterns ($&, $1) are expanded.
    expect(out).toMatch(/<div id="root"><\/div>\s*<div id="cc-main">\$& \$1<\/div>\s*<\/body>/);
    expect(template.render('<title>T</title>', 'it')).not.toContain('cc-main');
  });

  it('the consent banner escapes its texts', async () => {
    const { consentBanner } = await import('./consent');
    const html = consentBanner('it');
    // Every text node and attribute comes from the catalogue, escaped: no stray tag but ours.
    const tags = [...html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]);
    expect(new Set(tags)).toEqual(new Set(['div', 'h2', 'p', 'a', 'button', 'span']));
    expect(html).toContain('aria-label="Consenso ai cookie"');
  });
});
