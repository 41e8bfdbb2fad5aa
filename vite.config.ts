import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { LAZY_LOCALE_GROUPS } from './src/web/lib/localeGroups.ts';

const apiPort = process.env.PORT ?? '3000';

const LANGS = ['it', 'en'];

/**
 * it.json and en.json stay the single source of every text; at build time each is split into a
 * "core" chunk (loaded at start) and one chunk per lazy group (loaded by the routes needing it),
 * so long texts such as the legal pages never weigh on the home page.
 */
function localeSplit(): Plugin {
  const lazy = new Set<string>(LAZY_LOCALE_GROUPS);
  const file = (lang: string) =>
    fileURLToPath(new URL(`./src/web/locales/${lang}.json`, import.meta.url));
  return {
    name: 'scaffale-locale-split',
    resolveId(id) {
      if (id === 'virtual:locale-loaders' || id.startsWith('virtual:locale/')) return `\0${id}`;
    },
    load(id) {
      if (id === '\0virtual:locale-loaders') {
        const groups = ['core', ...lazy];
        const body = LANGS.map(
          (l) =>
            `${l}: {${groups.map((g) => `${JSON.stringify(g)}: () => import('virtual:locale/${l}/${g}')`).join(', ')}}`,
        ).join(',\n');
        return `export const loaders = {\n${body}\n};`;
      }
      if (id.startsWith('\0virtual:locale/')) {
        const [, lang, group] = id.slice(1).split('/');
        this.addWatchFile(file(lang));
        const all = JSON.parse(readFileSync(file(lang), 'utf8')) as Record<string, unknown>;
        const subset = Object.fromEntries(
          Object.entries(all).filter(([key]) =>
            group === 'core' ? !lazy.has(key) : key === group,
          ),
        );
        return `export default ${JSON.stringify(subset)};`;
      }
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  plugins: [react(), localeSplit()],
  resolve: { alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) } },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, ws: true },
      '/dev/mail': `http://127.0.0.1:${apiPort}`,
      '/uploads': `http://127.0.0.1:${apiPort}`,
    },
  },
  build: {
    outDir: fileURLToPath(new URL(`./${process.env.BUILD_DIR ?? 'dist'}/web`, import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
  },
});
