// S3 Object Lock (S3_OBJECT_LOCK) at the S3 client seam: no local server implements Object Lock
// (s3rver answers its calls 405/501), so the requests go to s3rver for real and are checked as
// sent, and the answers only AWS or MinIO would give (a lock's HEAD headers, a refused delete) are
// given by the seam (lib/testing/s3-client-seam.ts).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  asks,
  AWS_LOCK_REFUSAL,
  clientSeam,
  LOCK_ENABLED,
  MINIO_LOCK_REFUSAL,
  s3Error,
  type ClientSeam,
  type SentRequest,
  versionsOf,
} from '../testing/s3-client-seam';
import { startS3rver, type LocalS3 } from '../testing/s3rver';
import type { BlobLock } from './blob-store';
import { S3Store } from './s3-store';
import type { ObjectLockSetting } from './s3/object-lock';
import { readAll, sha } from './store-suite-helpers';

const MiB = 1024 * 1024;
const UNTIL = new Date('2035-12-31T00:00:00.000Z');
const retained = (mode: BlobLock['mode'], retainUntil = UNTIL, legalHold = false): BlobLock => ({ mode, retainUntil, legalHold });

let s3: LocalS3;
let bucket: string;
let seam: ClientSeam;
const open = (objectLock?: ObjectLockSetting, partSize?: number) => {
  const client = s3.client();
  seam = clientSeam(client);
  return new S3Store({ client, bucket, objectLock, partSize });
};
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.stop());
beforeEach(async () => {
  bucket = await s3.createBucket('lock');
});

const key = (hash: string) => `/${bucket}/sha256/${hash}`;
const SUB = ['retention', 'legal-hold', 'versions', 'object-lock'];
/** The operation a request is (the SDK names some in ?x-id=). */
const op = (r: SentRequest) =>
  String(
    r.query['x-id'] ??
      (r.method === 'HEAD'
        ? 'HeadObject'
        : 'uploads' in r.query
          ? 'CreateMultipartUpload'
          : r.method === 'POST'
            ? 'CompleteMultipartUpload'
            : (SUB.find((k) => k in r.query) ?? '?')),
  );
/** The requests on blob `hash`'s key, as "METHOD op". */
const onBlob = (hash: string) => seam.sent.filter((r) => r.path === key(hash)).map((r) => `${r.method} ${op(r)}`);
const lockHeaders = (r: SentRequest | undefined) =>
  Object.fromEntries(Object.entries(r?.headers ?? {}).filter(([k]) => k.startsWith('x-amz-object-lock-')));
const placing = (hash: string, x: string) => seam.sent.find((r) => r.path === key(hash) && r.query['x-id'] === x);
const noBypass = () => expect(seam.sent.filter((r) => 'x-amz-bypass-governance-retention' in r.headers)).toEqual([]);

describe('placing a blob under Object Lock', () => {
  it('PutObject carries the mode, the retain-until date, the legal hold and two checksums (SHA-256, MD5)', async () => {
    const store = open('compliance');
    const bytes = Buffer.from('an invoice kept ten years');
    await store.put(sha(bytes), bytes, { lock: retained('compliance', UNTIL, true) });
    const put = placing(sha(bytes), 'PutObject');
    expect(lockHeaders(put)).toEqual({
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-object-lock-retain-until-date': '2035-12-31T00:00:00Z',
      'x-amz-object-lock-legal-hold': 'ON',
    });
    expect(put?.headers['x-amz-checksum-sha256']).toBe(Buffer.from(sha(bytes), 'hex').toString('base64'));
    expect(put?.headers['content-md5']).toBe(createHash('md5').update(bytes).digest('base64'));
    expect((await readAll(await store.read(sha(bytes)))).equals(bytes)).toBe(true);
  });

  it('writes compliance only when both the version and S3_OBJECT_LOCK say so; governance otherwise', async () => {
    const cases: [ObjectLockSetting, BlobLock['mode'], string][] = [
      ['governance', 'compliance', 'GOVERNANCE'],
      ['compliance', 'governance', 'GOVERNANCE'],
      ['compliance', 'compliance', 'COMPLIANCE'],
    ];
    for (const [setting, mode, sent] of cases) {
      const store = open(setting);
      const bytes = Buffer.from(`${setting} ${mode}`);
      await store.put(sha(bytes), bytes, { lock: retained(mode) });
      expect(lockHeaders(placing(sha(bytes), 'PutObject'))['x-amz-object-lock-mode']).toBe(sent);
    }
  });

  it('sends no lock and no checksum for nothing to lock (no lock, a date past, no mode), nor without S3_OBJECT_LOCK', async () => {
    const locking = open('compliance');
    const unlocked: [Buffer, BlobLock | undefined][] = [
      [Buffer.from('no lock'), undefined],
      [Buffer.from('retention over'), retained('compliance', new Date(Date.now() - 1000))],
      [Buffer.from('no mode'), { mode: null, retainUntil: UNTIL, legalHold: false }],
    ];
    for (const [bytes, lock] of unlocked) await locking.put(sha(bytes), bytes, { lock });
    const puts = unlocked.map(([b]) => placing(sha(b), 'PutObject'));
    const plain = open(undefined);
    expect(plain.lock).toBeUndefined();
    const bytes = Buffer.from('a store without Object Lock');
    await plain.put(sha(bytes), bytes, { lock: retained('compliance', UNTIL, true) });
    for (const put of [...puts, placing(sha(bytes), 'PutObject')]) {
      expect(put).toBeDefined();
      expect(lockHeaders(put)).toEqual({});
      expect(put?.headers).not.toHaveProperty('x-amz-checksum-sha256');
      expect(put?.headers).not.toHaveProperty('content-md5');
    }
  });

  it('commitHeld: a short copy locks on its CopyObject, an empty one on its PutObject', async () => {
    const store = open('governance');
    const short = Buffer.from('shorter than a part');
    await store.receive('s', [short], { offset: 0, maxBytes: MiB });
    await store.commitHeld('s', sha(short), { lock: retained('governance', UNTIL, true) });
    expect(lockHeaders(placing(sha(short), 'CopyObject'))).toEqual({
      'x-amz-object-lock-mode': 'GOVERNANCE',
      'x-amz-object-lock-retain-until-date': '2035-12-31T00:00:00Z',
      'x-amz-object-lock-legal-hold': 'ON',
    });
    const empty = Buffer.alloc(0);
    await store.receive('e', [empty], { offset: 0, maxBytes: MiB });
    await store.commitHeld('e', sha(empty), { lock: retained('governance') });
    const put = placing(sha(empty), 'PutObject');
    expect(lockHeaders(put)['x-amz-object-lock-mode']).toBe('GOVERNANCE');
    expect(put?.headers['x-amz-checksum-sha256']).toBe(Buffer.from(sha(empty), 'hex').toString('base64'));
    // No retention or hold call after: the lock went with the object.
    expect(seam.sent.filter((r) => asks(r, 'retention') || asks(r, 'legal-hold'))).toEqual([]);
  });

  it('commitHeld: a multipart upload staged elsewhere locks on the CopyObject that places it', async () => {
    const store = open('compliance', 5 * MiB);
    const bytes = Buffer.alloc(6 * MiB, 7);
    await store.receive('m', [bytes], { offset: 0, maxBytes: bytes.length });
    await store.commitHeld('m', sha(bytes), { lock: retained('compliance') });
    expect(lockHeaders(placing(sha(bytes), 'CopyObject'))['x-amz-object-lock-mode']).toBe('COMPLIANCE');
  });

  it("receive with the lock known: a multipart upload at the blob's key is created locked, one staged elsewhere is not", async () => {
    const store = open('compliance', 5 * MiB);
    seam.answer((r) => asks(r, 'retention') || asks(r, 'legal-hold'), { status: 200 });
    const direct = Buffer.alloc(6 * MiB, 11);
    await store.receive('k', [direct], { offset: 0, maxBytes: direct.length, expectedHash: sha(direct), lock: retained('compliance') });
    const created = seam.sent.find((r) => r.path === key(sha(direct)) && asks(r, 'uploads'));
    expect(lockHeaders(created)).toEqual({
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-object-lock-retain-until-date': '2035-12-31T00:00:00Z',
    });
    // staged under held/ (no hash known): the staging object is no blob, so it is created unlocked; its CopyObject locks
    const staged = Buffer.alloc(6 * MiB, 12);
    await store.receive('g', [staged], { offset: 0, maxBytes: staged.length, lock: retained('compliance') });
    for (const r of seam.sent.filter((r) => asks(r, 'uploads') && r.path !== key(sha(direct)))) expect(lockHeaders(r)).toEqual({});
    // without S3_OBJECT_LOCK the lock is not sent at all
    const plain = open(undefined, 5 * MiB);
    const bytes = Buffer.alloc(6 * MiB, 13);
    await plain.receive('p', [bytes], { offset: 0, maxBytes: bytes.length, expectedHash: sha(bytes), lock: retained('compliance') });
    expect(lockHeaders(seam.sent.find((r) => asks(r, 'uploads')))).toEqual({});
  });

  it('commitHeld: a multipart upload completed straight to the blob (created before its lock was known) is locked right after', async () => {
    const store = open('compliance', 5 * MiB);
    seam.answer((r) => asks(r, 'retention') || asks(r, 'legal-hold'), { status: 200 });
    const bytes = Buffer.alloc(6 * MiB, 8);
    await store.receive('d', [bytes], { offset: 0, maxBytes: bytes.length, expectedHash: sha(bytes) });
    await store.commitHeld('d', sha(bytes), { lock: retained('compliance', UNTIL, true) });
    const calls = onBlob(sha(bytes));
    // Created at receive, when the lock was not known: no lock headers (and none on its parts).
    expect(calls.slice(0, 3)).toEqual(['POST CreateMultipartUpload', 'PUT UploadPart', 'PUT UploadPart']);
    for (const r of seam.sent.filter((r) => r.path === key(sha(bytes))).slice(0, 3)) expect(lockHeaders(r)).toEqual({});
    expect(calls.slice(3)).toEqual(['POST CompleteMultipartUpload', 'HEAD HeadObject', 'PUT retention', 'PUT legal-hold']);
    const retention = seam.sent.find((r) => asks(r, 'retention'));
    expect(retention?.body).toContain('<Mode>COMPLIANCE</Mode><RetainUntilDate>2035-12-31T00:00:00Z</RetainUntilDate>');
    // S3 wants a checksum on these; the SDK sends one of its own (CRC32), as the operation requires it.
    expect(retention?.headers['x-amz-checksum-crc32']).toMatch(/=$/);
    expect(seam.sent.find((r) => asks(r, 'legal-hold'))?.body).toContain('<Status>ON</Status>');
    noBypass();
  });
});

describe('lock() on a stored blob', () => {
  const bytes = Buffer.from('stored before its retention grew');
  let store: S3Store;
  /** The blob's HEAD as a locking server answers it. */
  const heads = (h: { mode?: string; until?: Date; hold?: boolean }) =>
    seam.answer(
      (r) => r.method === 'HEAD' && r.path === key(sha(bytes)),
      () => ({
        status: 200,
        headers: {
          'content-length': String(bytes.length),
          'last-modified': new Date().toUTCString(),
          'x-amz-version-id': 'v1',
          ...(h.mode ? { 'x-amz-object-lock-mode': h.mode } : {}),
          ...(h.until ? { 'x-amz-object-lock-retain-until-date': h.until.toISOString() } : {}),
          ...(h.hold !== undefined ? { 'x-amz-object-lock-legal-hold': h.hold ? 'ON' : 'OFF' } : {}),
        },
      }),
    );
  const lockCalls = () => seam.sent.filter((r) => asks(r, 'retention') || asks(r, 'legal-hold'));
  beforeEach(async () => {
    store = open('compliance');
    await store.put(sha(bytes), bytes);
    seam.answer((r) => asks(r, 'retention') || asks(r, 'legal-hold'), { status: 200 });
    seam.sent.length = 0;
  });

  it('extends a running retention, keeping its mode, on the version it looked at', async () => {
    heads({ mode: 'GOVERNANCE', until: new Date('2030-01-01T00:00:00Z'), hold: false });
    await store.lock?.(sha(bytes), retained('compliance'));
    const [retention, ...more] = lockCalls();
    expect(more).toEqual([]);
    expect(retention.query.versionId).toBe('v1');
    // Governance to compliance needs the bypass permission on S3, which lock never uses.
    expect(retention.body).toContain('<Mode>GOVERNANCE</Mode><RetainUntilDate>2035-12-31T00:00:00Z</RetainUntilDate>');
    noBypass();
  });

  it('never shortens: an earlier or equal date sends nothing', async () => {
    heads({ mode: 'COMPLIANCE', until: UNTIL, hold: false });
    await store.lock?.(sha(bytes), retained('compliance', new Date('2031-01-01T00:00:00Z')));
    await store.lock?.(sha(bytes), retained('compliance', UNTIL));
    await store.lock?.(sha(bytes), { mode: null, retainUntil: null, legalHold: false });
    expect(lockCalls()).toEqual([]);
  });

  it('a retention that has ended is set anew, in the mode asked for', async () => {
    heads({ mode: 'GOVERNANCE', until: new Date(Date.now() - 60_000), hold: false });
    await store.lock?.(sha(bytes), retained('compliance'));
    expect(lockCalls().map((r) => r.body?.match(/<Mode>(\w+)<\/Mode>/)?.[1])).toEqual(['COMPLIANCE']);
  });

  it('sets and lifts the legal hold, only when it changes', async () => {
    heads({ hold: false });
    await store.lock?.(sha(bytes), { mode: null, retainUntil: null, legalHold: true });
    heads({ hold: true });
    await store.lock?.(sha(bytes), { mode: null, retainUntil: null, legalHold: true });
    await store.lock?.(sha(bytes), { mode: null, retainUntil: null, legalHold: false });
    expect(lockCalls().map((r) => `${op(r)} ${r.body?.match(/<Status>(\w+)<\/Status>/)?.[1]}`)).toEqual([
      'legal-hold ON',
      'legal-hold OFF',
    ]);
    noBypass();
  });

  it('a blob the store does not hold is BlobMissing', async () => {
    await expect(store.lock?.(sha(Buffer.from('never stored')), retained('compliance'))).rejects.toMatchObject({ name: 'BlobMissing' });
  });
});

describe('deleting under Object Lock', () => {
  const bytes = Buffer.from('a blob with two versions');
  const versionDeletes = () => seam.sent.filter((r) => r.method === 'DELETE' && r.path === key(sha(bytes))).map((r) => r.query.versionId);
  let store: S3Store;
  beforeEach(async () => {
    store = open('governance');
    await store.put(sha(bytes), bytes);
    seam.answer((r) => asks(r, 'versions'), versionsOf(bucket, `sha256/${sha(bytes)}`, ['v2', 'v1']));
  });

  it('deletes every version, the older first and the current last (a plain delete would only add a delete marker)', async () => {
    seam.answer((r) => r.method === 'DELETE' && 'versionId' in r.query, { status: 204 });
    await store.delete(sha(bytes));
    expect(versionDeletes()).toEqual(['v1', 'v2']);
    noBypass();
  });

  it.each([
    ['AWS: 403 AccessDenied', AWS_LOCK_REFUSAL],
    ['MinIO: 400 InvalidRequest', MINIO_LOCK_REFUSAL],
  ])('a lock refusal (%s) is BlobLocked, and stops before the current version', async (_, refusal) => {
    seam.answer((r) => r.method === 'DELETE' && r.query.versionId === 'v1', refusal);
    const err = await store.delete(sha(bytes)).catch((e) => e);
    expect(err).toMatchObject({ name: 'BlobLocked', hash: sha(bytes) });
    expect(versionDeletes()).toEqual(['v1']);
    expect(await store.exists(sha(bytes))).toBe(true);
  });

  it.each([
    ['403 InvalidAccessKeyId', { status: 403, body: s3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist.') }],
    ['400 InvalidArgument', { status: 400, body: s3Error('InvalidArgument', 'Invalid version id specified') }],
  ])('any other refusal (%s) stays an error', async (_, reply) => {
    seam.answer((r) => r.method === 'DELETE' && 'versionId' in r.query, reply);
    const err = await store.delete(sha(bytes)).catch((e) => e);
    expect(err.name).not.toBe('BlobLocked');
    expect(err.$metadata.httpStatusCode).toBe(reply.status);
  });
});

describe('the bucket', () => {
  it('must have Object Lock: claim refuses one without it, and names the fix', async () => {
    await expect(open('compliance').claim('db-1')).rejects.toThrow(/has no Object Lock: create the bucket with Object Lock enabled/);
    const store = open('compliance');
    seam.answer((r) => asks(r, 'object-lock'), LOCK_ENABLED);
    await store.claim('db-1');
    await open(undefined).claim('db-1'); // without S3_OBJECT_LOCK nothing is asked
    expect(seam.sent.filter((r) => asks(r, 'object-lock'))).toEqual([]);
  });
});
