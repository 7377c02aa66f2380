import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDirectory } from './dir-lock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-lock-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('lockDirectory', () => {
  it('refuses a directory held by another live node process, naming its pid', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await writeFile(path.join(dir, 'silo.pid'), `${other.pid}\n`);
      expect(() => lockDirectory(dir)).toThrow(new RegExp(`pid ${other.pid}.*PostgreSQL`));
      expect((await readFile(path.join(dir, 'silo.pid'), 'utf8')).trim()).toBe(String(other.pid));
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a pid file whose process is gone, and releases it', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    await writeFile(path.join(dir, 'silo.pid'), `${gone.pid}\n`);
    const unlock = lockDirectory(dir);
    expect((await readFile(path.join(dir, 'silo.pid'), 'utf8')).trim()).toBe(String(process.pid));
    unlock();
    await expect(readFile(path.join(dir, 'silo.pid'), 'utf8')).rejects.toThrow();
  });
});
