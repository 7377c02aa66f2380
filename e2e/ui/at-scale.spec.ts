// The console on a seeded workspace (issue 25, Scale): a few thousand entries made by `npm run seed`
// (bench/seed.ts) before the server opens its database, then the entry list, the folder tree and the
// search box work on them as on a handful (functional only: bench/million.ts times them).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { bearer } from '../fixtures';
import { startServer } from '../fixtures/server';
import { test as consoleTest, expect, signIn } from './console';

const ENTRIES = 3000;
const ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

interface Seeded {
  owner_id: string;
  api_key: string;
  dataDir: string;
}

// This file's server opens a data directory the seed filled first (the embedded database is one
// process's at a time).
const test = consoleTest.extend<object, { seeded: Seeded }>({
  seeded: [
    async ({}, use) => {
      const dataDir = path.join(ROOT, 'tmp', `ui-at-scale-${randomBytes(4).toString('hex')}`);
      await mkdir(dataDir, { recursive: true });
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      const seed = [path.join(ROOT, 'node_modules/.bin/tsx'), 'bench/seed.ts', '--entries', String(ENTRIES)];
      const { stdout } = await run(process.execPath, seed, { cwd: ROOT, env });
      await use({ ...JSON.parse(stdout.trim().split('\n').at(-1) as string), dataDir });
      await rm(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  server: [
    async ({ serverEnv, seeded }, use) => {
      const server = await startServer({ database: 'pglite', dataDir: seeded.dataDir, env: serverEnv });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

test('the entry list, the folder tree and the search box work on a seeded workspace', async ({ page, adminAccount, seeded, request }) => {
  const auth = { headers: bearer(seeded.api_key) };
  // What the API says of it, for the console to show.
  const newest = (await (await request.get('/silo/v1/entries?limit=1', auth)).json()).list[0];
  const folders = (await (await request.get('/silo/v1/folders?parent=&limit=100', auth)).json()).list as {
    folder: string;
    entries: number;
  }[];
  const years = folders.filter((f) => /^\d{4}$/.test(f.folder));
  expect(years).toHaveLength(10);
  expect(years.reduce((n, f) => n + f.entries, 0)).toBe(ENTRIES);
  const year = years[4];

  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${seeded.owner_id}`);
  const region = page.getByRole('region', { name: 'Entries' });
  const rows = region.locator('tbody tr');
  // The list: newest first, a page of them, each with its files.
  await expect(rows.first()).toContainText(newest.name);
  expect(await rows.count()).toBeGreaterThan(10);
  expect(await rows.count()).toBeLessThan(ENTRIES);

  // The tree: every year with its count; a year lists its months' entries only.
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  await expect(tree.getByRole('button', { name: `${year.folder}, ${year.entries} entries` })).toBeVisible();
  await tree.getByRole('button', { name: `${year.folder}, ${year.entries} entries` }).click();
  await expect(rows.first()).toContainText(`-${year.folder}-`);
  for (const text of await rows.allTextContents()) expect(text).toContain(`-${year.folder}-`);

  // The search box, inside the chosen year: one invoice by its number.
  const inYear = (await (await request.get(`/silo/v1/entries?limit=5&folder=${year.folder}`, auth)).json()).list;
  const wanted = inYear[3];
  await page.getByRole('searchbox', { name: 'Search' }).fill(wanted.key);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(wanted.name);
  // Back to everything: the search still applies, across all years.
  await tree.getByRole('button', { name: 'All entries' }).click();
  await expect(rows).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(rows.first()).toContainText(newest.name);
});
