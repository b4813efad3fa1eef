import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One temporary folder for the whole run, removed at its end (see test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test files wait on processes they start (hooks, the CLI, MCP servers, npm); two workers
    // keep a 2-core machine busy where the default of cores − 1 leaves one of them idle.
    maxWorkers: 2,
    // Each worker process runs file after file without starting afresh: the files share the modules
    // they import (loading them again for every file cost more CPU than the tests of most files), and
    // the tests keep no state in modules (every file makes its own guards, stores and temporary folders).
    isolate: false,
  },
});
