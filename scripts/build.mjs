// Builds the app when the sources changed since the last build (or always with --force).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeRouteTable } from './route-table.mjs';

const INPUTS = [
  'app',
  'pages',
  'lib',
  'components',
  'public',
  'instrumentation.ts',
  'next.config.js',
  'tsconfig.json',
  'package.json',
  'prisma/schema.prisma',
];
const STAMP = '.next/silo-build-stamp';

function* walk(p) {
  if (!existsSync(p)) return;
  const s = statSync(p);
  if (s.isFile()) return yield `${p}:${s.size}:${s.mtimeMs}`;
  for (const name of readdirSync(p).sort()) yield* walk(path.join(p, name));
}

export function fingerprint() {
  const h = createHash('sha256');
  for (const input of INPUTS) for (const line of walk(input)) h.update(`${line}\n`);
  return h.digest('hex');
}

// One build at a time in a checkout (a second one would overwrite .next under the first).
const LOCK = '.next-build.lock';
const deadline = Date.now() + 15 * 60_000;
for (;;) {
  try {
    mkdirSync(LOCK);
    break;
  } catch {
    if (Date.now() > deadline || statSync(LOCK).mtimeMs < Date.now() - 15 * 60_000) rmSync(LOCK, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}
const unlock = () => rmSync(LOCK, { recursive: true, force: true });
process.on('exit', unlock);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

const force = process.argv.includes('--force');
const want = fingerprint();
if (!force && existsSync('.next/BUILD_ID') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === want) {
  console.log('Build is up to date.');
  process.exit(0);
}
console.log('Building Silo (next build)…');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const r = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', env });
if (r.status !== 0) process.exit(r.status ?? 1);
// What each route serves, for scripts/serve.mjs's OPTIONS and 405 answers.
await writeRouteTable(process.cwd());
writeFileSync(STAMP, want);
