// Finding a file for a caller: by entry and id with credentials, or by its signed url.
import { type Db, readCacheOf, type Tx } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError, notFound } from '../../errors';
import { inScope, scopeWhere, type Scope } from '../../db/scope';
import { findEntry } from '../find-entry';
import { fileInPeriod, outsidePeriod } from '../period';
import { verifyFileSignature } from './file-url';

export const fileNotFound = () => notFound('File not found');

export interface FindFileInEntryOptions {
  db: Db;
  scope: Scope;
  entryId: string;
  id: string;
}

export async function findFileInEntry({ db, scope, entryId, id }: FindFileInEntryOptions): Promise<File> {
  // One query when it is there (every read of a file's bytes); a miss asks again which of the
  // two is missing, as the answer names it.
  const file = await readCacheOf(db).read(['files', 'entries'], `file ${JSON.stringify([id, entryId, scope])}`, () =>
    db.file.findFirst({ where: { id, entryId, entry: scopeWhere(scope) } }),
  );
  if (file) {
    if (scope.period && !fileInPeriod(file, scope.period)) throw outsidePeriod('This version');
    return file;
  }
  await findEntry({ db, scope, id: entryId });
  throw fileNotFound();
}

export interface FindFileByUrlOptions {
  db: Db;
  /** the instance's url-signing secret */
  secret: string;
  id: string;
  sig: string | null;
}

export async function findFileByUrl({ db, secret, id, sig }: FindFileByUrlOptions): Promise<File> {
  const file = await db.file.findUnique({ where: { id } });
  if (!file || !sig || !verifyFileSignature(secret, file, sig)) throw fileNotFound();
  return file;
}

/**
 * A private file's link needs its owner's credentials as well. An auditor's key on a file's url
 * reads only its workspace's versions of its period, public ones included (404, 403).
 */
export async function assertMayRead(db: Db, file: File, scope: Scope | undefined): Promise<void> {
  if (scope?.period) {
    if (!(await inFileScope(db, file, scope))) throw fileNotFound();
    if (!fileInPeriod(file, scope.period)) throw outsidePeriod('This version');
    return;
  }
  if (!file.private) return;
  if (!scope) throw new ApiError('unauthorized', "This file is private: send the owner's credentials");
  if (!(await inFileScope(db, file, scope))) throw fileNotFound();
}

/** Does this scope reach the file's workspace and environment (its owner, a token of it, a member)? */
export async function inFileScope(db: Tx, file: File, scope: Scope): Promise<boolean> {
  const entry = await db.entry.findUnique({ where: { id: file.entryId } });
  return !!entry && inScope(scope, entry.ownerId, entry.sandbox);
}
