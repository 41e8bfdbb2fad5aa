import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** A built web folder in miniature for API tests: index.html, hashed assets and their twins. */
export interface WebFixture {
  dir: string;
  js: { url: string; body: string };
  css: { url: string; body: string };
  /** Not under /assets: revalidated, not immutable. */
  icon: { url: string; body: string };
}

export const FIXTURE_INDEX = `<!doctype html>
<html lang="it">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/icon.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="The build's own description, replaced by every answer." />
    <title>Scaffale</title>
    <script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-Ef56Gh78.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

export function createWebFixture(): WebFixture {
  const dir = mkdtempSync(join(tmpdir(), 'scaffale-web-'));
  mkdirSync(join(dir, 'assets'));
  const js = Array.from(
    { length: 400 },
    (_, i) => `export const shelf${i} = () => ({ id: ${i}, title: 'Libro ${i}' });`,
  ).join('\n');
  const css = Array.from(
    { length: 300 },
    (_, i) => `.card-${i} { display: grid; gap: ${i % 8}px; color: #7c3f1d; }`,
  ).join('\n');
  const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${'<rect width="8" height="8"/>'.repeat(60)}</svg>`;
  const files: Record<string, string> = {
    'index.html': FIXTURE_INDEX,
    'assets/index-Ab12Cd34.js': js,
    'assets/index-Ef56Gh78.css': css,
    'icon.svg': icon,
  };
  // Vite's manifest: the consent tool's chunk and its stylesheet (platform/spa/consent.ts).
  mkdirSync(join(dir, '.vite'));
  writeFileSync(
    join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'features/cookies/manager.ts': {
        file: 'assets/manager-Mn90Pq12.js',
        css: ['assets/manager-Rs34Tu56.css'],
      },
    }),
  );
  for (const [name, body] of Object.entries(files)) {
    const file = join(dir, name);
    writeFileSync(file, body);
    // What scripts/build.mjs writes beside every text file.
    writeFileSync(`${file}.br`, brotliCompressSync(body));
    writeFileSync(`${file}.gz`, gzipSync(body));
  }
  return {
    dir,
    js: { url: '/assets/index-Ab12Cd34.js', body: js },
    css: { url: '/assets/index-Ef56Gh78.css', body: css },
    icon: { url: '/icon.svg', body: icon },
  };
}
