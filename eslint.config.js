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
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/web/features/**', '**/web/app/**', '**/web/lib/**'] },
      ],
    },
  },
);
