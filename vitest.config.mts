import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // import.meta, not __dirname: Vite warns that its native config loader will not support __dirname.
  resolve: { alias: { '@': path.dirname(fileURLToPath(import.meta.url)) } },
  test: {
    include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The statistical and scale tests (timings, memory limits) run apart: `npm run test:slow` (vitest.slow.config.mts).
    exclude: [...configDefaults.exclude, '**/*.slow.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one; the tests wait on databases and servers more than
    // they compute, so on 2 cores three workers finish in about 0.7 of one worker's time (measured).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // Every cached read's statements are checked against the tables it declares (lib/db/declared-reads.ts).
    env: { SILO_CHECK_CACHE_READS: '1' },
    // Every test database is a copy of one migrated template made for the run (lib/testing/templates.ts).
    globalSetup: ['lib/testing/templates-global-setup.ts'],
    // The app's log goes to the test that wrote it (lib/testing/log-capture.ts).
    setupFiles: ['lib/testing/log-capture.ts', 'lib/testing/audit-key-setup.ts', 'lib/testing/templates-setup.ts'],
  },
});
