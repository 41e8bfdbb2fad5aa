import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The web never imports the server (types and rules they share live in src/shared). */
const noServer = {
  group: ['**/server/**'],
  message: 'The web never imports the server: share through src/shared.',
};
/** Features are used by the app, never the other way round. */
const noApp = {
  group: ['**/app', '**/app/**'],
  message:
    'Only src/web/app imports features, never the other way round: move shared code to lib/ or components/.',
};
/** components/ and lib/ are shared by every feature, so they know none of them. */
const noFeatures = {
  group: ['**/features', '**/features/**'],
  message: 'components/ and lib/ are shared by every feature and import none of them.',
};
/**
 * A feature uses another only through its index.ts (`../listings`, not `../listings/api`); the
 * second pattern lets `../../lib/...` and `../../components/...` through.
 */
const noDeepFeatureImports = {
  group: ['../*/*', '!../../**', '@web/features/*/*'],
  message:
    "Import another feature through its index.ts ('../listings'), or move the shared piece to components/ or lib/.",
};
const webImportRules = (...rules) => [noServer, ...rules];

/** The server never imports the web app (types and rules they share live in src/shared). */
const noWeb = {
  group: ['**/web/features/**', '**/web/app/**', '**/web/lib/**'],
  message: 'The server never imports the web app: share through src/shared.',
};
/**
 * Server modules meet through their index.ts, their contract: `../profiles`, never
 * `../profiles/service`. A folder inside a module (deals/post, library/search) is the module's own,
 * so the pattern depends on how deep the importing file sits: `depth` folders below modules/.
 */
const noDeepModuleImports = (depth) => ({
  regex: `^(\\.\\./){${depth}}[^./][^/]*/`,
  message:
    "Import another server module through its index.ts ('../profiles'); add what you need to its exports.",
});
/** The app, the test harness and the scripts use a module through its index.ts too. */
const noDeepModuleImportsFromOutside = {
  regex: '(^|/)server/modules/[^/]+/|^(\\.{1,2}/)+modules/[^/]+/',
  message:
    "Import a server module through its index.ts ('src/server/modules/profiles'); add what you need to its exports.",
};
/** The platform and the database layer serve every module and know none of them. */
const noModules = {
  regex: '(^|/)modules(/|$)',
  message:
    'platform/ and db/ never import a module: move the shared piece into the platform, or let the module register a callback.',
};

export default tseslint.config(
  { ignores: ['dist*/**', 'node_modules', 'data', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  // No source file over 450 lines: a longer one is split along its seams (README, Code map).
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': ['error', { patterns: webImportRules() }],
    },
  },
  // The web app's layers point one way (docs/architecture.md): app -> features -> components, lib.
  {
    files: ['src/web/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: webImportRules(noApp, noDeepFeatureImports) }],
    },
  },
  {
    files: ['src/web/components/**/*.{ts,tsx}', 'src/web/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: webImportRules(noApp, noFeatures) }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWeb] }] },
  },
  // Server modules meet through their index.ts; platform/ and db/ never import one.
  {
    files: ['src/server/*.ts', 'src/server/test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noWeb, noDeepModuleImportsFromOutside] }],
    },
  },
  {
    files: ['src/server/modules/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWeb, noDeepModuleImports(1)] }] },
  },
  {
    files: ['src/server/modules/*/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWeb, noDeepModuleImports(2)] }] },
  },
  {
    files: ['src/server/modules/*/*/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWeb, noDeepModuleImports(3)] }] },
  },
  {
    files: ['src/server/platform/**/*.ts', 'src/server/db/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noWeb, noModules] }] },
  },
  // Data access is parameterised SQL (db/sql.ts); Drizzle describes the schema and serves
  // better-auth's adapter (decision 0091). Tests may read with it.
  {
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/**/*.test.ts',
      'src/server/**/*.fixture.ts',
      'src/server/test/**',
      'src/server/db/**',
      'src/server/platform/auth/instance.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='db']:matches([object.name='database'], [object.property.name='database'])",
          message:
            "Data access is SQL through database.query() and the sql tag (db/sql.ts), not Drizzle's query builder (decision 0091).",
        },
        {
          selector: 'ImportDeclaration[source.value=/^drizzle-orm/]',
          message:
            'Drizzle describes the schema (db/schema) and serves better-auth; data access uses the sql tag of db/sql.ts (decision 0091).',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.{ts,mjs}', 'e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noDeepModuleImportsFromOutside] }],
    },
  },
);
