// `npm test`: the build, the unit tests (vitest) and the Playwright suites, one after another as
// `a && b && c` ran them, then what each took: "build 95 s, vitest 610 s, playwright 1200 s". It stops
// at the first step that fails and exits with its code. Arguments go to `playwright test`.
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
const steps = [
  ['build', process.execPath, ['scripts/build.mjs']],
  ['vitest', bin('vitest'), ['run']],
  ['playwright', bin('playwright'), ['test', ...process.argv.slice(2)]],
];

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.once('error', (err) => {
      console.error(err);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const took = [];
let failed = 0;
for (const [name, command, args] of steps) {
  const started = performance.now();
  const code = await run(command, args);
  took.push(`${name} ${Math.round((performance.now() - started) / 1000)} s${code ? ` (failed, exit ${code})` : ''}`);
  if (code) {
    failed = code;
    break;
  }
}
console.log(`\n${took.join(', ')}`);
process.exit(failed);
