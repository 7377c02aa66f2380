// "Export for an auditor" on a workspace's page: a period, the progress while the ZIP comes, and the
// file saved by the browser, which verify-export accepts; a period the API refuses shows its reason.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { b64, createEntry, inlineFile } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';

const ROOT = path.resolve(__dirname, '../..');

test('export a workspace for an auditor: period, progress, a verified ZIP', async ({ page, adminAccount, newOwner, request }, testInfo) => {
  const owner = await newOwner('Audit Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Invoice 9' });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'inv.xml', data: b64('<Invoice>9</Invoice>') });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'big.bin', data: b64(Buffer.alloc(3 << 20, 3)) });
  const today = new Date().toISOString().slice(0, 10);

  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}`);
  await page.getByRole('button', { name: 'Export for an auditor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export for an auditor' });

  // A period the API refuses: its reason, on the field.
  await dialog.getByLabel('From').fill('2030-01-02');
  await dialog.getByLabel('To').fill('2030-01-01');
  await dialog.getByRole('button', { name: 'Export' }).click();
  await expect(dialog).toContainText('must not be before from');

  await dialog.getByLabel('From').fill(today);
  await dialog.getByLabel('To').fill(today);
  // The answer held until the progress has been seen.
  let answer!: () => void;
  const seen = new Promise<void>((r) => (answer = r));
  await page.route('**/silo/v1/export?*', async (route) => {
    const res = await route.fetch();
    await seen;
    await route.fulfill({ response: res });
  });
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Export downloaded' })).toBeVisible();
  await expect(dialog).toContainText('Preparing the export…');
  answer();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`silo-export-${owner.id}-live-${today}-${today}.zip`);
  await expect(dialog.getByRole('status')).toContainText('Downloaded');
  await screenshot(page, 'auditor-export');
  const saved = testInfo.outputPath('export.zip');
  await file.saveAs(saved);
  const verdict = spawnSync('npx', ['tsx', path.join(ROOT, 'scripts/verify-export.ts'), saved], { cwd: ROOT, encoding: 'utf8' });
  expect(verdict.stdout, verdict.stderr).toMatch(/^OK: .*: \d+ members, 2 versions/);
});
