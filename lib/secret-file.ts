// A secret kept in a file of the data directory (mode 0600), made once: the session secret, the
// audit signing key. Never the database: whoever can read the database must not be able to sign.
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The file's text (trimmed), written first with `make()` when there is no file yet. */
export async function loadOrCreateSecretFile(file: string, make: () => string): Promise<string> {
  try {
    return await readSecretFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(path.dirname(file), { recursive: true });
  // Written whole under a private name, then linked into place: a racing process either wins
  // the link or reads the winner's file, and nobody ever reads a half-written secret.
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${make()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp);
  }
  return readSecretFile(file);
}

/** The file's text (trimmed); a file others may read is made private first. */
async function readSecretFile(file: string): Promise<string> {
  if ((await stat(file)).mode & 0o077) await chmod(file, 0o600);
  return (await readFile(file, 'utf8')).trim();
}
