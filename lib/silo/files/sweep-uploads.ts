// Drops held upload bytes nobody can finish any more (docs/api.md, Uploads: "dropped when the url
// expires"): copies of expired or deleted placeholders, and scratch copies a crash left behind.
import type { Db } from '../../db/client';
import { UUID } from '../../schemas/common';
import type { BlobStore } from '../../storage/blob-store';
import { isUploadLeased } from './upload-lock';

/** Scratch copies (inline-, verify-, check-) live for one request; older ones are leftovers. */
const SCRATCH_GRACE_MS = 60 * 60 * 1000;

export async function sweepUploads(db: Db, store: BlobStore, now = new Date()): Promise<number> {
  const held = await store.listHeld();
  const ids = held.map((h) => h.uploadId).filter((id) => UUID.test(id));
  const live = new Set(
    (await db.file.findMany({ where: { id: { in: ids }, stored: false, uploadExpiresAt: { gt: now } }, select: { id: true } })).map(
      (f) => f.id,
    ),
  );
  let dropped = 0;
  for (const h of held) {
    const keep = UUID.test(h.uploadId) ? live.has(h.uploadId) : now.getTime() - h.modifiedAt.getTime() < SCRATCH_GRACE_MS;
    // A live lease (this or another instance) means an upload is writing it right now.
    if (keep || (UUID.test(h.uploadId) && (await isUploadLeased(db, h.uploadId)))) continue;
    await store.dropHeld(h.uploadId);
    dropped++;
  }
  return dropped;
}
