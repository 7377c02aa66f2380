// Placing a verified held copy under sha256/<hash>. The object appears there in one step (a
// CompleteMultipartUpload, a CopyObject or a PutObject), never partly written. With Object Lock,
// the lock headers go with a CopyObject or PutObject; a multipart upload completed straight to the
// blob's key was created before its lock was known (at receive), and is locked after it completes.
import { resumableSha256 } from '../sha256-state';
import { isNotFound, type Bucket } from './bucket';
import { BLOBS, deleteHeldObjects, dropHeldCopy, nextPartOf, readState, stagingKey } from './held';
import type { LockParams } from './object-lock';

/** Returns whether `lock` went with the request that placed the object (false: lock it now). */
export async function commitHeldCopy(bucket: Bucket, id: string, hash: string, lock?: LockParams): Promise<boolean> {
  const to = `${BLOBS}${hash}`;
  // Placed over the same bytes stored already as over nothing (one object is kept): a shortcut
  // when they exist would let a caller time whether they were there (SECURITY.md).
  const state = await readState(bucket, id);
  if (!state) {
    // No held copy: an earlier commit of it placed it already.
    if (!(await bucket.head(to))) throw new Error(`no held copy ${id}`);
    await dropHeldCopy(bucket, id);
    return false;
  }
  // The store knows the hash of what it holds: never place bytes under another hash.
  const held = (await resumableSha256(state.sha256)).digest();
  if (held !== hash) throw new Error(`the held copy ${id} has sha256 ${held}, not ${hash}`);

  if (state.parts.length === 0) {
    // Shorter than one part: the tail is the whole copy (or there are no bytes at all).
    if (state.tail) await bucket.copy(state.tail.key, to, state.tail.size, lock);
    else await bucket.put(to, new Uint8Array(0), { lock, sha256: hash });
    await dropHeldCopy(bucket, id); // also aborts a multipart upload that never got a part
    return true;
  }
  const mp = state.multipart;
  if (!mp) throw new Error(`the held copy ${id} has parts but no multipart upload`);
  const staged = mp.key === stagingKey(id);
  if (!staged && mp.key !== to) throw new Error(`the held copy ${id} was staged for ${mp.key}, not ${to}`);
  const parts = [...state.parts];
  if (state.tail) {
    // The tail becomes the last part, the one S3 lets be shorter than 5 MiB.
    const body = await bucket.getBytes(state.tail.key);
    if (body?.length !== state.tail.size) throw new Error(`the held copy ${id} has lost its tail`);
    const n = nextPartOf(state); // past any number a stalled earlier holder may have used
    parts.push({ n, etag: await bucket.uploadPart(mp.key, mp.id, n, body) });
  }
  try {
    await bucket.completeMultipart(mp.key, mp.id, parts);
  } catch (err) {
    // An earlier commit that died after completing the staging object left it whole: go on from there.
    if (!(staged && isNotFound(err) && (await bucket.head(mp.key))?.size === state.size)) throw err;
  }
  // Without a known hash the upload completed to held/<id>/data: copy it into place (server side).
  if (staged) await bucket.copy(mp.key, to, state.size, lock);
  await deleteHeldObjects(bucket, id);
  return staged;
}
