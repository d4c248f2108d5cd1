import { defineConfig } from 'vitest/config';

/** Files that change what a module exports for their own run (vi.mock): each runs in a process of its own. */
const ISOLATED = ['test/unit/beacon-classified-once.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One a core: the suite keeps them busy, and on two cores a third worker made the same run 4 to 7 % longer.
    maxWorkers: '100%',
    projects: [
      // Every other file shares its worker's modules: nothing outside the composition root keeps state, and a file that
      // fakes a timer, a clock or TZ puts it back. A process and a module graph per file cost about 3 s each.
      // The global setup (the stack: Azurite and the local Cosmos server) is run once a project that names it, so only
      // here: the isolated file uses none of it.
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
