// One process per embedded database directory.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { lockDataDir, lockExistingEmbedded } from './data-dir-lock';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-lock-'));
  lock = path.join(dir, 'db.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const holder = (pid: number, host = os.hostname()) =>
  JSON.stringify({ pid, host, what: 'a Silo server', since: '2026-11-23T00:00:00.000Z' });

it('is taken and released; its file names the holder', async () => {
  const release = lockDataDir(lock, 'fsck');
  expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid, what: 'fsck' });
  release();
  expect(existsSync(lock)).toBe(false);
});

it('refuses while a live process holds it, and takes it over once that process is gone', async () => {
  const other = spawn('sleep', ['60']);
  try {
    await writeFile(lock, holder(other.pid!));
    expect(() => lockDataDir(lock, 'fsck')).toThrow(`in use by a Silo server (pid ${other.pid}`);
  } finally {
    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
  }
  lockDataDir(lock, 'fsck')();
});

it('never guesses about a holder on another host', async () => {
  await writeFile(lock, holder(1, 'another-host'));
  expect(() => lockDataDir(lock, 'fsck')).toThrow(`remove ${lock} if it is no longer running`);
});

it("a script's lock refuses a data directory with no embedded database, and creates nothing", async () => {
  expect(() => lockExistingEmbedded(dir, 'npm run fsck')).toThrow(`no embedded database at ${path.join(dir, 'db')} (is DATA_DIR right?)`);
  expect(existsSync(lock)).toBe(false);
  expect(existsSync(path.join(dir, 'db'))).toBe(false);
  await mkdir(path.join(dir, 'db'));
  await writeFile(path.join(dir, 'db', 'PG_VERSION'), '17\n');
  const release = lockExistingEmbedded(dir, 'npm run fsck');
  expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid, what: 'npm run fsck' });
  release();
  expect(existsSync(lock)).toBe(false);
});
