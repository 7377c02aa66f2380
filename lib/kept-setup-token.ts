// The setup token this instance issued, kept in $DATA_DIR/setup-token (mode 0600, as
// session-secret) so that its next start prints the same link instead of an instance-less "a link
// is out": the database keeps only the token's hash. Removed once an administrator exists.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

const file = (dataDir: string) => path.join(dataDir, 'setup-token');

export async function readKeptSetupToken(dataDir: string): Promise<string | undefined> {
  try {
    return (await readFile(file(dataDir), 'utf8')).trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function keepSetupToken(dataDir: string, token: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const tmp = `${file(dataDir)}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${token}\n`, { mode: 0o600, flag: 'wx' });
  await rename(tmp, file(dataDir));
}

export async function forgetSetupToken(dataDir: string): Promise<void> {
  await unlink(file(dataDir)).catch((err) => {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  });
}
