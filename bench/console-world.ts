// Shared by the console benchmarks: a server with an administrator and an owner, Debian's Chromium
// signed in to the console, and one file uploaded through an entry's page the way an operator does
// (chosen in the dropzone's file input, "Upload 1 file"), timed inside the page.
import { chromium, type Browser, type Page } from '@playwright/test';
import { setupLinkIn, startServer, type SiloServer } from '../e2e/fixtures/server';

const ADMIN = { email: 'bench@example.com', password: 'bench password 1' };

export interface ConsoleWorld {
  server: SiloServer;
  browser: Browser;
  page: Page;
  ownerId: string;
  ownerKey: string;
  newEntry(name: string): Promise<string>;
  /** Deletes an entry and so frees its bytes: the next upload of the same file writes them anew. */
  deleteEntry(id: string): Promise<void>;
  stop(): Promise<void>;
}

export async function consoleWorld(): Promise<ConsoleWorld> {
  const server = await startServer({ database: 'pglite' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const stop = async () => {
    await browser.close();
    await server.stop();
  };
  try {
    const token = new URL(await waitFor(() => setupLinkIn(server.output()))).searchParams.get('token');
    await call('POST', `${server.url}/admin/v1/setup`, {}, { token, name: 'Bench', ...ADMIN });
    const owner = await call('POST', `${server.url}/admin/v1/owners`, { Authorization: `Bearer ${server.adminKey}` }, { name: 'bench' });
    const ownerKey: string = owner.api_keys[0].key;
    const auth = { Authorization: `Bearer ${ownerKey}` };
    const page = await browser.newPage({ baseURL: server.url });
    await page.goto('/signin');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/workspaces$/);
    return {
      server,
      browser,
      page,
      ownerId: owner.id,
      ownerKey,
      newEntry: async (name) => (await call('POST', `${server.url}/silo/v1/entries`, auth, { name })).id,
      deleteEntry: async (id) => void (await call('DELETE', `${server.url}/silo/v1/entries/${id}`, auth)),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Milliseconds from the click on "Upload 1 file" to each status the file's row showed. */
export type ConsoleTimeline = { status: string; ms: number }[];

/** Uploads `file` through the entry's page; resolves when its row says stored. */
export async function consoleUpload(world: ConsoleWorld, entryId: string, file: string): Promise<ConsoleTimeline> {
  const { page } = world;
  await page.goto(`/workspaces/${world.ownerId}/entries/${entryId}`);
  await page.locator('input[type=file]').setInputFiles(file);
  const button = page.getByRole('button', { name: 'Upload 1 file' });
  await button.waitFor();
  // Timed in the page, so the clock starts at the click and each status is seen as it renders.
  await page.evaluate(() => {
    const w = window as unknown as { benchTimes: [string, number][] };
    w.benchTimes = [];
    let last = '';
    document.addEventListener('click', () => w.benchTimes.push(['click', performance.now()]), { capture: true, once: true });
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid=upload-row]')?.getAttribute('data-status') ?? '';
      if (status === last) return;
      last = status;
      w.benchTimes.push([status, performance.now()]);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
  await button.click();
  await page.getByTestId('upload-row').and(page.locator('[data-status=stored],[data-status=failed]')).waitFor({ timeout: 600_000 });
  const times = await page.evaluate(() => (window as unknown as { benchTimes: [string, number][] }).benchTimes);
  const failed = await page
    .getByTestId('upload-row')
    .getByRole('alert')
    .textContent()
    .catch(() => null);
  if (times.at(-1)?.[0] !== 'stored') throw new Error(`the console's upload failed: ${failed}`);
  const click = times.findIndex(([what]) => what === 'click');
  const t0 = times[click][1];
  return times
    .slice(click + 1)
    .filter(([status]) => status !== 'ready')
    .map(([status, t]) => ({ status, ms: t - t0 }));
}

/** Milliseconds from the click to the first time the row showed `status` (the end when absent). */
export function reached(timeline: ConsoleTimeline, status: string): number {
  return timeline.find((t) => t.status === status)?.ms ?? timeline.at(-1)!.ms;
}

export async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

async function waitFor(read: () => string | undefined): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server printed no setup link');
}
