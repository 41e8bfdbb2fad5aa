import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@web': fileURLToPath(new URL('./src/web', import.meta.url)),
    },
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['src/server/test/global-setup.ts'],
          setupFiles: ['src/server/test/after-file.ts'],
          // Each worker imports the server's modules once and runs its files one after another:
          // importing them again for every file took a third of the run. These tests stub no
          // module, global or timer, and each builds its own app and database.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          // Some of these stub modules and globals (vi.mock): a fresh module graph per file.
          include: ['src/web/**/*.test.ts', 'src/web/**/*.test.tsx'],
        },
      },
    ],
  },
});
