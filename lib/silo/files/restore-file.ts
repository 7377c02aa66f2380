// POST …/files/{id}/restore: an earlier version's bytes become a new current version.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';
import { isForeignKeyViolation, isRecordGone } from '../../db/db-errors';
import { must } from '../../must';
import type { BlobStore } from '../../storage/blob-store';
import type { CreatedBy, RestoredFrom } from '../../schemas/files';
import { Prisma } from '../../db/generated/client';
import { nonce } from './create-file';
import { withExistingBlob } from './blobs';
import { makeCurrent } from './replace-file';
import { lockVersionBlob } from '../retention/blob-locks';
import { versionStored } from '../../metrics.mjs';

export interface RestoreFileOptions {
  db: Db;
  store: BlobStore;
  /** the earlier version whose bytes become current again */
  version: File;
  /** who restores it: the new version's created_by */
  actor?: CreatedBy | null;
}

export async function restoreFile({ db, store, version, actor }: RestoreFileOptions): Promise<File> {
  if (!version.stored) throw new ApiError('not_stored', 'A placeholder has no bytes to restore');
  const {
    id: _id,
    createdAt: _c,
    storedAt: _s,
    version: _v,
    uploadExpiresAt: _u,
    urlNonce: _n,
    linkNonce: _l,
    stored: _st,
    createdBy: _b,
    restoredFrom: _r,
    // a new version: the rules in force now and the entry's hold decide its own (prisma/sql/retention.sql)
    retainUntil: _ru,
    retentionMode: _rm,
    legalHold: _lh,
    ...fields
  } = version;
  const restoredFrom: RestoredFrom = { id: version.id, version: must(version.version, 'a stored version has a number') };
  // A delete of the version (or its file) racing this one: the bytes or the slot may be gone.
  const gone = () => new ApiError('not_found', 'The file was deleted');
  const restored = await withExistingBlob(db, store, version.hash, async (tx) => {
    // The slot before the new row, as every write of files takes them (lock-slot.ts): the row's
    // foreign keys share-lock the slot and the entry, and upgrading the slot's lock afterwards (in
    // makeCurrent) deadlocked with an entry's DELETE or a legal hold, which lock the slot then the entry.
    const slot = await tx.$queryRaw<unknown[]>`SELECT 1 FROM file_slots WHERE id = ${version.slotId}::uuid FOR NO KEY UPDATE`;
    if (!slot.length) throw gone();
    const file = await tx.file.create({
      data: {
        ...fields,
        id: randomUUID(),
        urlNonce: nonce(),
        stored: false,
        meta: fields.meta ?? {},
        facts: fields.facts ?? Prisma.DbNull, // the same bytes: the same facts
        createdBy: actor ?? Prisma.DbNull,
        restoredFrom,
      },
    });
    await makeCurrent(tx, file, { actor: actor ?? null, restoredFrom });
    return tx.file.findUniqueOrThrow({ where: { id: file.id } });
  }).catch((err) => {
    throw isForeignKeyViolation(err) || isRecordGone(err) ? gone() : err;
  });
  if (restored) {
    versionStored(restored.size);
    await lockVersionBlob(db, store, restored);
    return restored;
  }
  if (!(await db.file.findUnique({ where: { id: version.id }, select: { id: true } }))) throw gone();
  throw new ApiError('internal', 'The bytes of this version are missing from the store');
}
