// A backup and its restore against a real server on the embedded database and a local disk:
// BACKUP_BYTES (default 512 MiB) in BACKUP_VERSIONS (default 1000) versions of varied size, sent
// inline; GET /admin/v1/backup written by curl to a file, then `npm run restore` of that file into
// a new data directory — each next to `zip -0 -r` of the same bytes as files written to a file, in
// the same run. Prints each rate as a ratio to zip's, the server's memory during the backup and the
// restore's own. Targets: backup ≥ 0.5 × zip, the restore's check and load ≥ 0.25 × zip (it reads
// every byte twice), server RSS peak − baseline ≤ 100 MB. The restore's peak memory is printed:
// a new embedded database's initdb dominates it.
// Run: npx tsx bench/backup.ts  (BACKUP_BYTES=134217728 BACKUP_VERSIONS=300 for a quicker run)
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../e2e/fixtures/server';
import { MB, groupRssMB, variedSizes, watchRss } from './measure';
import { sendInline } from './send-inline';

const SIZE = Number(process.env.BACKUP_BYTES ?? 512 * 1024 ** 2);
const COUNT = Number(process.env.BACKUP_VERSIONS ?? 1000);
const run = promisify(execFile);

/** This process's environment without a PostgreSQL: the restore's target is embedded. */
function embedded(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, DATABASE_OWNER_URL: __, STORAGE: ___, ...env } = process.env;
  return env;
}

async function seconds(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

async function main() {
  const dir = path.resolve('tmp', 'bench-backup');
  const files = path.join(dir, 'files');
  await rm(dir, { recursive: true, force: true });
  await mkdir(files, { recursive: true });
  const list = variedSizes(SIZE, COUNT);
  console.log(`Silo backup and restore benchmark: ${(SIZE / 1024 ** 2).toFixed(0)} MiB in ${COUNT} versions (embedded, local disk)\n`);
  for (let i = 0; i < list.length; i++) await writeFile(path.join(files, `${i}.bin`), randomBytes(list[i]));
  const server = await startServer({ database: 'pglite' });
  try {
    const admin = { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' };
    const owner = await (await fetch(`${server.url}/admin/v1/owners`, { method: 'POST', headers: admin, body: '{"name":"bench"}' })).json();
    const key = `Bearer ${owner.api_keys[0].key}`;
    const entry = await (
      await fetch(`${server.url}/silo/v1/entries`, { method: 'POST', headers: { ...admin, Authorization: key }, body: '{}' })
    ).json();
    await sendInline({ url: server.url, authorization: key, entryId: entry.id, dir: files, count: list.length });

    const zipFile = path.join(dir, 'zip.zip');
    const zip = SIZE / MB / (await seconds(() => run('sh', ['-c', `cd '${files}' && zip -0 -r -q - . > '${zipFile}' && sync`])));
    await rm(zipFile);

    const backup = path.join(dir, 'backup.zip');
    const baseline = groupRssMB(server.pid);
    const rss = watchRss(server.pid);
    const took = await seconds(async () => {
      const got = await run('curl', [
        '-sS',
        '-o',
        backup,
        '-w',
        '%{http_code}',
        '-H',
        `Authorization: Bearer ${server.adminKey}`,
        `${server.url}/admin/v1/backup`,
      ]);
      if (got.stdout !== '200') throw new Error(`backup: ${got.stdout}`);
      await run('sync');
    });
    const peak = rss.stop();
    const size = (await stat(backup)).size;
    const rate = size / MB / took;
    console.log(
      `backup: ${rate.toFixed(0)} MB/s = ${(rate / zip).toFixed(2)} × zip -0 (${zip.toFixed(0)} MB/s; target ≥ 0.50); server RSS peak − baseline ${Math.max(0, peak - baseline).toFixed(0)} MB (target ≤ 100)`,
    );

    // The restore, as an operator runs it, into a new data directory; its process group's memory.
    const target = path.join(dir, 'restored');
    let restorePeak = 0;
    let restoreOutput = '';
    const restoreTook = await seconds(
      () =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'scripts/restore.ts', backup], {
            env: { ...embedded(), DATA_DIR: target, NODE_ENV: 'production' },
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (out += d));
          const watch = watchRss(child.pid as number);
          child.on('exit', (code) => {
            restorePeak = watch.stop();
            restoreOutput = out;
            if (code === 0) resolve();
            else reject(new Error(`restore exited ${code}:\n${out}`));
          });
        }),
    );
    if (process.env.BENCH_RUNS_SHOWN) console.log(restoreOutput);
    const restoreRate = size / MB / restoreTook;
    // What the restore took past opening its new database (an embedded one's initdb and migrations
    // cost about as long as a first `npm start`, whatever the backup's size).
    const second = (label: string) => Number(new RegExp(`… ${label} \\((\\d+\\.\\d) s\\)`).exec(restoreOutput)?.[1]);
    const opened = second('database open');
    const total = Number(/took (\d+\.\d) s/.exec(restoreOutput)?.[1]);
    const loadRate = size / MB / (total - opened + second('checked'));
    console.log(
      `restore: ${restoreRate.toFixed(0)} MB/s = ${(restoreRate / zip).toFixed(2)} × zip -0 in all (${opened.toFixed(1)} s of its ${total.toFixed(1)} s creating and migrating the new embedded database); ` +
        `checking and loading alone ${loadRate.toFixed(0)} MB/s = ${(loadRate / zip).toFixed(2)} × zip -0 (target ≥ 0.25: every byte is read twice); its RSS peak ${restorePeak.toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
