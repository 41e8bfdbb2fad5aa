// Builds the web app (Vite) and the server bundle (esbuild), then prints the gzipped size of the
// JavaScript that the home page loads.
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const started = Date.now();
// BUILD_DIR lets parallel work build side by side; npm start and CI use dist.
const out = process.env.BUILD_DIR ?? 'dist';

await viteBuild({ configFile: 'vite.config.ts', logLevel: 'warn' });

rmSync(`${out}/server`, { recursive: true, force: true });
await esbuild({
  entryPoints: ['src/server/main.ts'],
  outfile: `${out}/server/main.js`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  alias: { '@shared': './src/shared' },
  sourcemap: true,
  logLevel: 'warning',
});
mkdirSync(`${out}/server/migrations`, { recursive: true });
cpSync('src/server/db/migrations', `${out}/server/migrations`, { recursive: true });

// What "/" downloads: the entry with its static imports, the home page chunk and the Italian catalogue.
const manifest = JSON.parse(readFileSync(`${out}/web/.vite/manifest.json`, 'utf8'));
const seen = new Set();
const walk = (key) => {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const dep of chunk.imports ?? []) walk(dep);
};
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key);
for (const key of Object.keys(manifest))
  if (/features\/home\/HomePage|virtual:locale\/it\/core/.test(key)) walk(key);
let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  if (file.endsWith('.js')) total += gzipSync(readFileSync(`${out}/web/${file}`)).length;
}
const kb = (total / 1024).toFixed(1);
writeFileSync(
  `${out}/build-info.json`,
  JSON.stringify({ builtAt: new Date().toISOString(), homeJsGzipBytes: total }, null, 2),
);
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `build: JavaScript loaded by / is ${kb} KB gzipped (${seen.size} chunks; budget 190 KB)`,
);
if (total > 190 * 1024) {
  console.error('build: the home page JavaScript is over its 190 KB budget');
  process.exit(1);
}
