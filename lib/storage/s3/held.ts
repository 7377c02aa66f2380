// A held upload on S3 lives in the bucket, not in a process: under held/<id>/ a state object
// (the multipart upload and its parts, the tail object, the byte count, the saved SHA-256 state)
// and the tail, the bytes after the last full part. Any instance can continue it from there.
import { randomUUID } from 'node:crypto';
import type { Bucket, Part } from './bucket';

export interface HeldState {
  v: 1;
  /** bytes held: parts × partSize + tail */
  size: number;
  /** every part but the last is exactly this long (S3 wants ≥ 5 MiB) */
  partSize: number;
  /** the multipart upload holding the full parts, and the key it completes to */
  multipart?: { key: string; id: string };
  /** parts 1…k in order, each partSize bytes */
  parts: Part[];
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
const stateKey = (id: string) => `${heldPrefix(id)}state.json`;
export const stagingKey = (id: string) => `${heldPrefix(id)}data`;
/** Each tail gets a fresh name, so the state object never points at a tail being rewritten. */
export const newTailKey = (id: string) => `${heldPrefix(id)}tail-${randomUUID()}`;

export async function readState(bucket: Bucket, id: string): Promise<HeldState | undefined> {
  const bytes = await bucket.getBytes(stateKey(id));
  return bytes && (JSON.parse(bytes.toString('utf8')) as HeldState);
}

export async function writeState(bucket: Bucket, id: string, state: HeldState): Promise<void> {
  await bucket.put(stateKey(id), JSON.stringify(state));
}

/**
 * Removes every object of held copy `id`, the state first: a crash halfway leaves objects that
 * listHeld still reports (so a sweep finishes the job), never a state pointing at a missing tail.
 */
export async function deleteHeldObjects(bucket: Bucket, id: string): Promise<void> {
  await bucket.delete(stateKey(id));
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
