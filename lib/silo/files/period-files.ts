// What an auditor's key sees of an entry's files (docs/api.md, Auditor keys): per file, the newest
// version stored in the key's period, its `previous` only the versions stored in the period before
// it. Placeholders and versions stored outside the period are not shown. Without a period: the
// files as everyone else sees them (list-files.ts, file-record.ts).
import type { Tx } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { Period } from '../../db/scope';
import type { FileRecord } from '../../schemas/files';
import { storedIn } from '../period';
import { type RecordContext, fileRecord } from './file-record';
import { listFiles } from './list-files';
import type { PreviousVersion } from './list-previous-versions';
import { presentFile } from './present-file';

/** An entry's files as records: every file's current version, or within a period, as above. */
export async function fileRecordsOf(c: RecordContext, entryId: string, period: Period | undefined): Promise<FileRecord[]> {
  return (await entryFiles(c, entryId, period)).records;
}

/** The versions fileRecordsOf shows (their rows: the entry's facts are read from them) and their records. */
export async function entryFiles(
  c: RecordContext,
  entryId: string,
  period: Period | undefined,
): Promise<{ files: File[]; records: FileRecord[] }> {
  if (!period) {
    const files = await listFiles(c.db, entryId);
    return { files, records: await Promise.all(files.map((f) => fileRecord(c, f))) };
  }
  const files = await listFilesInPeriod(c.db, entryId, period);
  return { files, records: await Promise.all(files.map(async (f) => presentFile(f, c.signer, await previousInPeriod(c.db, f, period)))) };
}

/** Per slot, the newest version stored in the period, in the order of list-files.ts (category, key). */
export async function listFilesInPeriod(db: Tx, entryId: string, period: Period): Promise<File[]> {
  const versions = await db.file.findMany({
    where: { entryId, ...storedIn(period) },
    orderBy: [{ slotId: 'asc' }, { version: 'desc' }],
  });
  const newest = new Map<string, File>();
  for (const v of versions) if (!newest.has(v.slotId)) newest.set(v.slotId, v);
  const slots = await db.fileSlot.findMany({
    where: { id: { in: [...newest.keys()] } },
    orderBy: [{ category: 'asc' }, { key: 'asc' }],
    select: { id: true },
  });
  return slots.map((s) => newest.get(s.id) as File);
}

/** The versions of a file's slot before it that were stored in the period, newest first. */
export async function previousInPeriod(db: Tx, file: File, period: Period): Promise<PreviousVersion[]> {
  if (file.version === null || file.version === 1) return [];
  return db.file.findMany({
    where: { slotId: file.slotId, version: { lt: file.version }, ...storedIn(period) },
    orderBy: { version: 'desc' },
    select: {
      id: true,
      name: true,
      hash: true,
      size: true,
      createdAt: true,
      version: true,
      desc: true,
      createdBy: true,
      restoredFrom: true,
      retainUntil: true,
      retentionMode: true,
      legalHold: true,
    },
  });
}
