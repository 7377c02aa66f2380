// A held upload on S3 lives in the bucket, not in a process: under held/<id>/ a state object
// (the multipart upload and its parts, the tail object, the byte count, the saved SHA-256 state)
// and the tail, the bytes after the last full part. Any instance can continue it from there.
// Fencing (issue 20): each writer writes the state object of its lease generation,
// state-<generation>.json, and the newest generation's is the state. A holder that stalled past its
// lease and still writes only rewrites its own, older one; the part numbers it may still use are
// skipped by its successor (adoptHeldCopy), and the tail its successor continues is its own copy.
import { randomUUID } from 'node:crypto';
import { HeldByNewerLease } from '../blob-store';
import { isNotFound, type Bucket, type Part } from './bucket';

export interface HeldState {
  v: 1;
  /** the lease generation whose writer wrote this state (0: unfenced, as before generations) */
  gen?: number;
  /** bytes held: parts × partSize + tail */
  size: number;
  /** every part but the last is exactly this long (S3 wants ≥ 5 MiB) */
  partSize: number;
  /** the multipart upload holding the full parts, and the key it completes to */
  multipart?: { key: string; id: string };
  /** the parts in order, each partSize bytes; numbered 1…k, with a gap after each takeover */
  parts: Part[];
  /** the number the next part gets (parts.length + 1 when absent) */
  next?: number;
  /** the bytes after the last full part, as their own small object */
  tail?: { key: string; size: number };
  /** hash-wasm SHA-256 state after `size` bytes, base64; '' before the first byte */
  sha256: string;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const HELD = 'held/';
export const BLOBS = 'sha256/';

export function heldPrefix(id: string) {
  if (!SAFE_ID.test(id)) throw new Error('bad upload id');
  return `${HELD}${id}/`;
}
const statePrefix = (id: string) => `${heldPrefix(id)}state`;
const stateKey = (id: string, gen = 0) =>
  gen > 0 ? `${statePrefix(id)}-${String(gen).padStart(16, '0')}.json` : `${statePrefix(id)}.json`;
const genOfKey = (key: string) => Number(/state-(\d+)\.json$/.exec(key)?.[1] ?? 0);
export const nextPartOf = (s: HeldState) => s.next ?? s.parts.length + 1;

/** The state objects of held copy `id`, newest generation first. */
async function stateKeys(bucket: Bucket, id: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of bucket.list(statePrefix(id))) if (/\/state(-\d+)?\.json$/.test(o.key)) keys.push(o.key);
  return keys.sort((a, b) => genOfKey(b) - genOfKey(a));
}
export const stagingKey = (id: string) => `${heldPrefix(id)}data`;
/** Each tail gets a fresh name, so the state object never points at a tail being rewritten. */
export const newTailKey = (id: string) => `${heldPrefix(id)}tail-${randomUUID()}`;

/** The state of held copy `id`: the newest generation's. */
export async function readState(bucket: Bucket, id: string): Promise<HeldState | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [key] = await stateKeys(bucket, id);
    if (!key) return undefined;
    const bytes = await bucket.getBytes(key);
    // Gone between the listing and the read (a newer writer cleaned it up, or a drop): look again.
    if (bytes) return { gen: genOfKey(key), ...(JSON.parse(bytes.toString('utf8')) as HeldState) };
  }
  throw new Error(`the held copy ${id} keeps changing its state object`);
}

export async function writeState(bucket: Bucket, id: string, state: HeldState): Promise<void> {
  await bucket.put(stateKey(id, state.gen), JSON.stringify(state));
}

/** Removes the state objects of generations older than `gen` (they are never read again). */
export async function dropOlderStates(bucket: Bucket, id: string, gen: number): Promise<void> {
  const keys = (await stateKeys(bucket, id)).filter((k) => genOfKey(k) < gen);
  await Promise.all(keys.map((k) => bucket.delete(k)));
}

/**
 * A takeover (BlobStore.adoptHeld): the writer of `gen` continues what the newest state records.
 * Its tail is copied to a tail of its own (the stalled holder may delete its tail once it writes
 * a newer one), and the next part number skips the `partsInFlight` numbers the stalled holder may
 * still be sending (it starts a part only below its last durable `next` + partsInFlight, and only
 * after its lease check passed: receive.ts). The state is then written as generation `gen`.
 */
export async function adoptHeldCopy(bucket: Bucket, id: string, gen: number, partsInFlight: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const state = await readState(bucket, id);
    if (!state) return 0;
    if ((state.gen ?? 0) >= gen) throw new HeldByNewerLease(`the held copy ${id} is held by generation ${state.gen}`);
    let tail = state.tail;
    if (tail) {
      const own = { key: newTailKey(id), size: tail.size };
      try {
        await bucket.copy(tail.key, own.key, tail.size);
      } catch (err) {
        // The stalled holder wrote a newer state and dropped this tail meanwhile: read that one.
        if (isNotFound(err) && attempt < 3) continue;
        throw err;
      }
      tail = own;
    }
    await writeState(bucket, id, { ...state, gen, tail, next: nextPartOf(state) + partsInFlight });
    await dropOlderStates(bucket, id, gen).catch(() => {});
    return state.size;
  }
}

/**
 * Removes every object of held copy `id`, the state first: a crash halfway leaves objects that
 * listHeld still reports (so a sweep finishes the job), never a state pointing at a missing tail.
 */
export async function deleteHeldObjects(bucket: Bucket, id: string): Promise<void> {
  for (const key of await stateKeys(bucket, id)) await bucket.delete(key);
  const keys: string[] = [];
  for await (const o of bucket.list(heldPrefix(id))) keys.push(o.key);
  await Promise.all(keys.map((k) => bucket.delete(k)));
}

/** Drops held copy `id`: aborts its multipart upload (freeing the parts), then removes its objects. */
export async function dropHeldCopy(bucket: Bucket, id: string): Promise<void> {
  const state = await readState(bucket, id);
  if (state?.multipart) await bucket.abortMultipart(state.multipart.key, state.multipart.id);
  await deleteHeldObjects(bucket, id);
}
