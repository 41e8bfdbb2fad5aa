import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { LANGUAGE_STORAGE_KEY } from './src/shared/constants.ts';
import {
  DEFAULT_PAGE_LOCALE_GROUPS,
  LAZY_LOCALE_GROUPS,
  PAGES_LOCALE_GROUP,
  localeGroupOf,
} from './src/web/lib/localeGroups.ts';
import { readRouteTable } from './scripts/locale-usage.ts';

const apiPort = process.env.PORT ?? '3000';

const LANGS = ['it', 'en'];

/**
 * it.json and en.json stay the single source of every text; at build time each is split into a
 * "core" chunk (the shell's and the home page's texts, loaded at start), one chunk per lazy group
 * and a "pages" chunk with every other top-level key (src/web/lib/localeGroups.ts), loaded by the
 * routes and components needing them, so the first download carries only what / can show.
 */
function localeSplit(): Plugin {
  const file = (lang: string) =>
    fileURLToPath(new URL(`./src/web/locales/${lang}.json`, import.meta.url));
  return {
    name: 'scaffale-locale-split',
    resolveId(id) {
      if (id === 'virtual:locale-loaders' || id.startsWith('virtual:locale/')) return `\0${id}`;
    },
    load(id) {
      if (id === '\0virtual:locale-loaders') {
        const groups = ['core', ...LAZY_LOCALE_GROUPS, PAGES_LOCALE_GROUP];
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
          Object.entries(all).filter(([key]) => localeGroupOf(key) === group),
        );
        return `export default ${JSON.stringify(subset)};`;
      }
    },
  };
}

/**
 * Only the CSS of the Mantine components in use, carried by the chunk that uses them: every
 * component module of @mantine/core imports its class names from `<Name>.module.css.mjs`, so the
 * build makes that file import `styles/<Name>.layer.css` too. A route chunk then brings the CSS of
 * its own components, and the first paint waits only for the shell's. The files are the `mantine`
 * CSS layer, so the app's own (unlayered) CSS wins whatever order chunks arrive in; the component
 * import sits after its dependencies' (Button after UnstyledButton), as in Mantine's full sheet.
 * The dev server pre-bundles @mantine/core untransformed, so there it loads the full sheet.
 */
function mantineComponentStyles(): Plugin {
  let serve = false;
  const base = ['baseline', 'default-css-variables', 'global'];
  return {
    name: 'scaffale-mantine-component-styles',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    resolveId(id) {
      if (id === 'virtual:mantine-styles') return '\0virtual:mantine-styles';
    },
    load(id) {
      if (id !== '\0virtual:mantine-styles') return;
      const sheets = serve
        ? ['@mantine/core/styles.layer.css', '@mantine/notifications/styles.layer.css']
        : base.map((name) => `@mantine/core/styles/${name}.layer.css`);
      return sheets.map((sheet) => `import '${sheet}';`).join('\n');
    },
    transform(code, id) {
      if (serve) return;
      // Components, and the inline inputs' shared layout (utils/InlineInput: the box of a
      // Checkbox, a Radio or a Switch beside its label).
      const core = /@mantine\/core\/esm\/(?:components|utils)\/.+\/(\w+)\.module\.css\.mjs$/.exec(
        id,
      );
      const sheet = core
        ? `@mantine/core/styles/${core[1]}.layer.css`
        : /@mantine\/notifications\/esm\/Notifications\.module\.css\.mjs$/.test(id)
          ? '@mantine/notifications/styles.layer.css'
          : undefined;
      if (sheet) return { code: `import '${sheet}';\n${code}`, map: null };
    },
  };
}

/**
 * Feature folders export through index.ts barrels, and a module is assumed to have side effects
 * unless told otherwise, so importing BookCard from '../listings' also pulled AddBookModal with its
 * form library and zod into the library page. Feature, component and shared modules only declare
 * things (checked: none runs code at import that another module relies on), so the build may drop
 * the ones whose exports nobody uses.
 */
function sideEffectFreeSources(): Plugin {
  const pure = /[\\/]src[\\/](web[\\/](features|components)|shared)[\\/].+\.tsx?$/;
  return {
    name: 'scaffale-side-effect-free-sources',
    apply: 'build',
    transform(_code, id) {
      if (pure.test(id)) return { moduleSideEffects: false };
    },
  };
}

/**
 * Toasts are raised from the shell (`notifications.show`), but their component, with its
 * transition and scroll-lock libraries, is needed only once one shows. The package's index ties
 * both together, so in the build every import of it but app/Toasts.tsx gets the store alone.
 */
function notificationsStoreOnly(): Plugin {
  const store = fileURLToPath(
    new URL('./node_modules/@mantine/notifications/esm/notifications.store.mjs', import.meta.url),
  );
  return {
    name: 'scaffale-notifications-store-only',
    apply: 'build',
    resolveId(source, importer) {
      if (
        source === '@mantine/notifications' &&
        importer &&
        !/[\\/]app[\\/]Toasts\.tsx$/.test(importer)
      )
        return store;
    },
  };
}

/**
 * The page's chunk and the language's catalogues are fetched only once the shell's script has
 * run, a second round trip before the first paint. A tiny boot script, listed before the shell's
 * in index.html, knows which files each top-level route of router.tsx needs (from this build's
 * chunks) and which locale groups it names, and asks for them and the language's core catalogue
 * at once with modulepreload, in parallel with the shell's script. It runs no app code: a wrong
 * guess costs one unused download, never a wrong page.
 */
function routePreload(): Plugin {
  const appDir = fileURLToPath(new URL('./src/web/app/', import.meta.url));
  const toRegExp = (path: string) =>
    `^/${path
      .split('/')
      .filter(Boolean)
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`;
  return {
    name: 'scaffale-route-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle: OutputBundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const html = bundle['index.html'];
      if (!entry || !html || html.type !== 'asset') return;
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const inShell = new Set<string>();
      const collect = (file: string, into: Set<string>) => {
        if (into.has(file) || (into !== inShell && inShell.has(file))) return;
        into.add(file);
        const chunk = byName.get(file);
        chunk?.imports.forEach((dep) => collect(dep, into));
      };
      collect(entry.fileName, inShell);
      const filesOf = (moduleId: string) => {
        const chunk =
          chunks.find((c) => c.facadeModuleId === moduleId) ??
          chunks.find((c) => c.moduleIds.includes(moduleId));
        if (!chunk) return [];
        const files = new Set<string>();
        collect(chunk.fileName, files);
        const css = [...files].flatMap((f) => [
          ...((byName.get(f) as { viteMetadata?: { importedCss: Set<string> } } | undefined)
            ?.viteMetadata?.importedCss ?? []),
        ]);
        return [...files, ...css];
      };
      // Top-level routes only: the private area's children need a session anyway.
      const source0 = readFileSync(`${appDir}router.tsx`, 'utf8');
      const routes: Array<[string, string[], readonly string[]]> = [];
      for (const route of readRouteTable(source0)) {
        if (route.privateArea) continue;
        const files = filesOf(resolve(appDir, `${route.module}.tsx`));
        const groups = route.groups ?? DEFAULT_PAGE_LOCALE_GROUPS;
        if (files.length) routes.push([toRegExp(route.path), files, groups]);
      }
      // Per language, the files of the core catalogue and of each group a route names.
      const groups = new Set(['core', ...routes.flatMap(([, , named]) => named)]);
      const catalogues = Object.fromEntries(
        LANGS.map((lang) => [
          lang,
          Object.fromEntries(
            [...groups].map((group) => [group, filesOf(`\0virtual:locale/${lang}/${group}`)]),
          ),
        ]),
      );
      const source = `// Generated by vite.config.ts (routePreload).
const routes = ${JSON.stringify(routes)};
const catalogues = ${JSON.stringify(catalogues)};
const path = location.pathname;
const route = routes.find(([re]) => new RegExp(re).test(path));
let stored = null;
try { stored = localStorage.getItem(${JSON.stringify(LANGUAGE_STORAGE_KEY)}); } catch {}
const tags = [stored, ...(navigator.languages || [navigator.language]), document.documentElement.lang];
const lang = tags.map((t) => (t || '').slice(0, 2).toLowerCase()).find((t) => t in catalogues) || ${JSON.stringify(LANGS[0])};
const texts = catalogues[lang];
const wanted = route ? route[1].concat(...route[2].map((g) => texts[g] || [])) : [];
for (const file of new Set(wanted.concat(texts.core))) {
  const link = document.createElement('link');
  if (file.endsWith('.css')) { link.rel = 'preload'; link.as = 'style'; } else link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = '/' + file;
  document.head.appendChild(link);
}
`;
      const fileName = `assets/boot-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      // Before the shell's script: module scripts run in document order, and this one is tiny.
      html.source = String(html.source).replace(
        /<script type="module"/,
        `<script type="module" src="/${fileName}"></script>\n    <script type="module"`,
      );
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  plugins: [
    react(),
    localeSplit(),
    mantineComponentStyles(),
    sideEffectFreeSources(),
    notificationsStoreOnly(),
    routePreload(),
  ],
  resolve: {
    alias: [
      { find: '@shared', replacement: fileURLToPath(new URL('./src/shared', import.meta.url)) },
      // Our own small router and translator are imported by their own names (src/web/lib/router/,
      // src/web/lib/reactI18n.tsx over src/shared/translator.ts): see decisions 0029, 0030, 0048.
      { find: '@web', replacement: fileURLToPath(new URL('./src/web', import.meta.url)) },
    ],
  },
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
    rolldownOptions: {
      output: {
        // Few requests rather than many tiny ones (HTTP/1.1 opens six connections per host): a
        // common chunk under 30 kB is copied into the chunks using it (rolldown keeps one module
        // state) instead of costing each page a request, and the libraries every page runs are one
        // chunk. Measured, scripts loaded: / 38 -> 6, /library 61 -> 12, a book page 46 -> 6. An
        // "everything the entry imports" group was tried: through @mantine/core's index it pulled
        // components only pages use (ScrollArea, Combobox, floating-ui) into the shell, +12 kB.
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 30000 },
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/][^\\/]+)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
