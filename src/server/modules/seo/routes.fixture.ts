import { beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { createWebFixture } from '../../platform/spa/web.fixture';
import { gattopardo } from '../../test/listings';

export let t: TestApp;
export let seller: Member;
export let secretive: Member;
export let listing: { id: string };
export let nasty: { id: string };
export const PUBLIC_URL = 'https://scaffale.example';

export { gattopardo };

export async function create(who: Member, body: object) {
  const res = await t.inject({
    method: 'POST',
    url: '/api/listings',
    headers: { cookie: who.cookie },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

export const get = (url: string, lang = 'it') =>
  t.inject({ method: 'GET', url, headers: { 'accept-language': lang } });

/** The attribute `content` of the meta tag with this name or property, unescaped. */
export function meta(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(html);
  return m ? unescape(m[1]) : undefined;
}
export const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
export const titleOf = (html: string) => unescape(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
export function jsonLd(html: string): Record<string, any> {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  return JSON.parse(scripts[0][1]);
}

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp({
      config: { webDir: createWebFixture().dir, publicUrl: PUBLIC_URL },
    });
    seller = await createMember(t, { username: 'sara_seller', displayName: 'Sara Seller' });
    secretive = await createMember(t, { username: 'hidden_one', displayName: 'Hidden Harriet' });
    await t.database.query(`update users set privacy_level = 'private' where id = $1`, [
      secretive.id,
    ]);
    listing = await create(seller, gattopardo);
    nasty = await create(seller, {
      ...gattopardo,
      title: `</script><script>alert(1)</script> "Quoted" & 'single'`,
      author: `<img src=x onerror=alert(2)>`,
      description: `Ends the element </script><!-- and <b>bold</b> "quotes"`,
      isbn: undefined,
    });
  });
}
