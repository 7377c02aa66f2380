// `npm run verify-export` holds nothing per member but what manifest.json costs (its text, which
// the signature is checked over whole, and its parse): an export of about 10,000 versions is
// checked by the script in a process whose heap may not pass 64 MB. Reading the lists whole (every
// member, the CSV tables parsed into rows) took over 11 KB a member: more than 110 MB here, and
// 1.25 GB for 103,000 versions. A heap limit, not a timing: the check cannot flake on a busy machine.
// The figures: bench/verify-export-memory.ts.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld } from '../../testing/database';
import { seededExport } from '../../testing/seeded-export';
import { key } from '../../testing/export-fixtures';

const HEAP_MB = 64;

let dir: string;
let zipFile: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-verify-memory-'));
  zipFile = path.join(dir, 'export.zip');
  const w = await testWorld({ database: 'pglite' });
  try {
    const plan = await seededExport(w, { entries: 4000, key, file: zipFile });
    expect(plan.versions).toBeGreaterThan(9000);
  } finally {
    await w.close();
  }
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('verify-export’s memory', () => {
  it(`checks ~10,000 versions within a ${HEAP_MB} MB heap`, async () => {
    const pem = path.join(dir, 'key.pem');
    await writeFile(pem, key.publicPem);
    const run = spawnSync(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', 'scripts/verify-export.ts', zipFile, '--public-key', pem],
      { encoding: 'utf8' },
    );
    expect(run.stderr.slice(-2000)).not.toMatch(/heap out of memory/);
    expect(run.stdout).toMatch(/^OK: .* \d{4,} versions/);
    expect(run.status).toBe(0);
  }, 120_000);
});
