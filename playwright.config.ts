// API suite (always on PGlite; again on PostgreSQL when TEST_DATABASE_URL is set) and UI suite in
// Debian's Chromium. Each worker starts its own server: see e2e/fixtures/server.ts; its database is
// a copy of the run's migrated template, made by e2e/global-setup.ts.
import { defineConfig } from '@playwright/test';
import type { WorkerFixtures } from './e2e/fixtures';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig<unknown, WorkerFixtures>({
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 2,
  fullyParallel: false,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  projects: [
    { name: 'api', testDir: 'e2e/api', use: { database: 'pglite' } },
    ...(process.env.TEST_DATABASE_URL
      ? [
          { name: 'api-postgres', testDir: 'e2e/api', use: { database: 'postgres' as const } },
          // Several instances on one PostgreSQL and one S3 (s3rver).
          { name: 'multi', testDir: 'e2e/multi', use: { database: 'postgres' as const } },
        ]
      : []),
    {
      name: 'ui',
      testDir: 'e2e/ui',
      use: {
        database: 'pglite',
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: chromium,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
