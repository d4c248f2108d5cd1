import { defineConfig } from 'vitest/config';

/** Files that change what a module exports for their own run (vi.mock): each runs in a process of its own. */
const ISOLATED = ['test/unit/beacon-classified-once.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Every other file shares its worker's modules: nothing outside the composition root keeps state, and a file that
      // fakes a timer, a clock or TZ puts it back. A process and a module graph per file cost about 3 s each.
      // The stack (Azurite and the local Cosmos server) is started once a project; only these files use it.
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
