// The server's heap-growth setting (scripts/heap-growth.mjs, imported by serve.mjs): a bad value
// stops the start with one clear line; a good one, or none, starts. Its effect on memory under
// load is measured by bench/small-requests.ts (its memory growth line).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.join(__dirname, 'heap-growth.mjs');

async function load(value: string | undefined) {
  const env = { ...process.env };
  delete env.SILO_HEAP_GROWTH_PERCENT;
  if (value !== undefined) env.SILO_HEAP_GROWTH_PERCENT = value;
  return run(process.execPath, ['-e', `import(${JSON.stringify(SCRIPT)}).then(() => console.log('started'))`], { env }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

it.each([undefined, '', '0', '30', '1000'])('starts with SILO_HEAP_GROWTH_PERCENT=%s', async (value) => {
  const r = await load(value);
  expect(r).toEqual({ code: 0, out: 'started\n' });
});

it.each(['-1', '1001', '2.5', 'abc', ' 5x'])('refuses SILO_HEAP_GROWTH_PERCENT=%j with one line', async (value) => {
  const r = await load(value);
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/^Silo cannot start: Invalid configuration: SILO_HEAP_GROWTH_PERCENT: must be an integer from 0 to 1000/);
});
