// S3 Object Lock at placement (docs/api.md, Retention; docs/design/storage.md, Read-only blobs and Object
// Lock): a version whose retention is known before its bytes are placed — an inline create, an
// upload completing a placeholder — has its blob written with the lock mode, the retain-until date
// and the checksum S3 requires in the PutObject or CopyObject that places it, the date its row then
// shows; PutObjectRetention after the commit only for what extends it (a PATCH). Without
// S3_OBJECT_LOCK no lock header is sent (s3rver takes the request as any other). The requests are
// checked as sent at the S3 client seam (lib/testing/s3-client-seam.ts), the blob's HEAD answered
// with the lock it was placed with, as a locking server would; on PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { RetentionRuleInput } from '../../schemas/retention';
import { DatabaseStore } from '../../storage/database-store';
import { S3Store } from '../../storage/s3-store';
import type { ObjectLockSetting } from '../../storage/s3/object-lock';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, sha256, TEST_FILE_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { asks, clientSeam, type ClientSeam, type Reply, type SentRequest } from '../../testing/s3-client-seam';
import { startS3rver, type LocalS3 } from '../../testing/s3rver';
import { createFile } from '../files/create-file';
import { receiveUpload } from '../files/receive-upload';
import { updateFile } from '../files/update-file';
import { createRetentionRule } from './retention-rules';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const yearEnd = (at: Date, years: number) => new Date(Date.UTC(at.getUTCFullYear() + 1 + years, 0, 1));
const LOCK_HEADERS = ['x-amz-object-lock-mode', 'x-amz-object-lock-retain-until-date', 'x-amz-object-lock-legal-hold'];

describe.each(testDatabases())('S3 Object Lock at placement (%s)', (database) => {
  let w: TestWorld;
  let s3: LocalS3;
  let bucket: string;
  let ownerId: string;
  let scope: Scope;

  beforeAll(async () => {
    [w, s3] = await Promise.all([testWorld({ database }), startS3rver()]);
    bucket = await s3.createBucket('placed');
    ownerId = (await createTestOwner(w.db.prisma, `placed-${database}`)).id;
    scope = { owners: [ownerId], sandbox: false };
  });
  afterAll(async () => {
    await w?.close();
    await s3?.stop();
  });

  const db = () => w.db.prisma;
  const blobPath = (hash: string) => `/${bucket}/sha256/${hash}`;
  const locks = (r: SentRequest | undefined) => Object.fromEntries(LOCK_HEADERS.flatMap((h) => (r?.headers[h] ? [[h, r.headers[h]]] : [])));

  /** The files store the server has (the database's small blobs in front) over S3, its requests seen at the seam. */
  function open(objectLock?: ObjectLockSetting, partSize?: number): { store: DatabaseStore; seam: ClientSeam } {
    const client = s3.client();
    const seam = clientSeam(client);
    // What s3rver does not implement: retention and legal-hold calls succeed, and a blob placed
    // locked answers its HEAD with that lock (its size from the placing request, or the test's).
    seam.answer((r) => asks(r, 'retention') || asks(r, 'legal-hold'), { status: 200 });
    seam.answer(
      (r) => r.method === 'HEAD' && r.path.startsWith(`/${bucket}/sha256/`),
      (r) => {
        const placed = [...seam.sent]
          .reverse()
          .find((p) => p.path === r.path && (p.method === 'PUT' || asks(p, 'uploads')) && locks(p)['x-amz-object-lock-mode']);
        if (!placed) return undefined as unknown as Reply; // not placed locked: s3rver answers
        return {
          status: 200,
          headers: {
            'content-length': sizes.get(r.path) ?? '0',
            'last-modified': new Date().toUTCString(),
            'x-amz-version-id': 'v1',
            'x-amz-object-lock-mode': placed.headers['x-amz-object-lock-mode'],
            'x-amz-object-lock-retain-until-date': placed.headers['x-amz-object-lock-retain-until-date'],
          },
        };
      },
    );
    const inner = new S3Store({ client, bucket, objectLock, partSize });
    return { store: new DatabaseStore(db(), inner, { keepUpTo: 0 }), seam };
  }
  const sizes = new Map<string, string>();

  async function entryWithRule(rule?: object) {
    const folder = `f-${randomUUID()}`;
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'e', folder } })).id;
    if (rule)
      await createRetentionRule({
        db: db(),
        store: w.store,
        target: { ownerId, sandbox: false },
        input: RetentionRuleInput.parse({ ...rule, folder }),
        applyToExisting: false,
        actor: TEST_ACTOR,
      });
    return entryId;
  }

  const inline = async (store: DatabaseStore, entryId: string, text: string, extra: object = {}) => {
    sizes.set(blobPath(sha256(Buffer.from(text))), String(Buffer.byteLength(text)));
    return (
      await createFile({
        db: db(),
        store,
        scope,
        entryId,
        input: parse({ name: 'inv.xml', data: b64(text), ...extra }),
        limits: TEST_FILE_LIMITS,
      })
    ).file;
  };
  const onBlob = (seam: ClientSeam, hash: string) => seam.sent.filter((r) => r.path === blobPath(hash));
  const retentionCalls = (seam: ClientSeam) => seam.sent.filter((r) => asks(r, 'retention'));

  it("an inline create's PutObject carries the rules' compliance date and the SHA-256 checksum; no retention call after", async () => {
    const { store, seam } = open('compliance');
    const entryId = await entryWithRule({ years: 10, from: 'end_of_year', mode: 'compliance' });
    const text = `<Invoice>${randomUUID()}</Invoice>`;
    const file = await inline(store, entryId, text);
    expect(file.retentionMode).toBe('compliance');
    expect(file.retainUntil).toEqual(yearEnd(file.storedAt as Date, 10));
    const put = onBlob(seam, file.hash).find((r) => r.method === 'PUT');
    expect(locks(put)).toEqual({
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-object-lock-retain-until-date': (file.retainUntil as Date).toISOString().replace('.000Z', 'Z'),
    });
    expect(put?.headers['x-amz-checksum-sha256']).toBe(Buffer.from(file.hash, 'hex').toString('base64'));
    // the lock went with the object: the after-commit look (HEAD) finds it and sends nothing more
    expect(retentionCalls(seam)).toEqual([]);
    expect(onBlob(seam, file.hash).filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('a date asked at create is the placed one (governance); a PATCH that extends it is a PutObjectRetention after', async () => {
    const { store, seam } = open('compliance');
    const entryId = await entryWithRule();
    const until = new Date(Date.UTC(2041, 0, 1));
    const file = await inline(store, entryId, `<Invoice>${randomUUID()}</Invoice>`, { retain_until: until.toISOString() });
    expect(locks(onBlob(seam, file.hash)[0])).toEqual({
      'x-amz-object-lock-mode': 'GOVERNANCE',
      'x-amz-object-lock-retain-until-date': '2041-01-01T00:00:00Z',
    });
    expect(retentionCalls(seam)).toEqual([]);
    const later = new Date(Date.UTC(2045, 0, 1));
    await updateFile({ db: db(), store, file, patch: { retain_until: later.toISOString() }, actor: TEST_ACTOR });
    const [extended, ...more] = retentionCalls(seam);
    expect(more).toEqual([]);
    expect(extended.body).toContain('<Mode>GOVERNANCE</Mode><RetainUntilDate>2045-01-01T00:00:00Z</RetainUntilDate>');
  });

  it("an upload completing a placeholder is placed (CopyObject) with its rules' date, the one its row shows", async () => {
    const { store, seam } = open('compliance');
    const entryId = await entryWithRule({ years: 8, from: 'end_of_year', mode: 'governance' });
    const bytes = Buffer.from(`uploaded ${randomUUID()}`);
    sizes.set(blobPath(sha256(bytes)), String(bytes.length));
    const input = parse({ name: 'up.xml', mime: 'application/xml', size: bytes.length, sha256: sha256(bytes) });
    const { file: placeholder } = await createFile({ db: db(), store, scope, entryId, input, limits: TEST_FILE_LIMITS });
    const up = await receiveUpload({ db: db(), store, file: placeholder, source: [bytes], contentRange: null });
    expect(up.kind).toBe('stored');
    const stored = await db().file.findUniqueOrThrow({ where: { id: placeholder.id } });
    expect(stored.retainUntil).toEqual(yearEnd(stored.storedAt as Date, 8));
    const copy = onBlob(seam, stored.hash).find((r) => r.method === 'PUT' && 'x-amz-copy-source' in r.headers);
    expect(locks(copy)).toEqual({
      'x-amz-object-lock-mode': 'GOVERNANCE',
      'x-amz-object-lock-retain-until-date': (stored.retainUntil as Date).toISOString().replace('.000Z', 'Z'),
    });
    expect(retentionCalls(seam)).toEqual([]);
  });

  it('a multipart upload staged at the blob itself is created locked (CreateMultipartUpload): nothing to set after it completes', async () => {
    const MiB = 1024 * 1024;
    const { store, seam } = open('compliance', 5 * MiB);
    const entryId = await entryWithRule({ years: 10, from: 'end_of_year', mode: 'compliance' });
    const bytes = Buffer.alloc(6 * MiB, randomUUID());
    sizes.set(blobPath(sha256(bytes)), String(bytes.length));
    const input = parse({ name: 'scan.pdf', mime: 'application/pdf', size: bytes.length, sha256: sha256(bytes) });
    const { file: placeholder } = await createFile({ db: db(), store, scope, entryId, input, limits: TEST_FILE_LIMITS });
    expect((await receiveUpload({ db: db(), store, file: placeholder, source: [bytes], contentRange: null })).kind).toBe('stored');
    const stored = await db().file.findUniqueOrThrow({ where: { id: placeholder.id } });
    const calls = onBlob(seam, stored.hash);
    const created = calls.find((r) => asks(r, 'uploads'));
    expect(locks(created)).toEqual({
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-object-lock-retain-until-date': (stored.retainUntil as Date).toISOString().replace('.000Z', 'Z'),
    });
    expect(calls.some((r) => r.method === 'POST' && 'uploadId' in r.query)).toBe(true); // CompleteMultipartUpload
    expect(retentionCalls(seam)).toEqual([]);
  });

  it('nothing retained, or no S3_OBJECT_LOCK: no lock header and no checksum, and s3rver stores it', async () => {
    for (const [setting, rule] of [
      ['compliance', undefined],
      [undefined, { years: 10, from: 'end_of_year', mode: 'compliance' }],
    ] as const) {
      const { store, seam } = open(setting);
      const entryId = await entryWithRule(rule);
      const text = `<Invoice>${randomUUID()}</Invoice>`;
      const file = await inline(store, entryId, text);
      expect(file.retentionMode).toBe(rule ? 'compliance' : null); // the row keeps its retention all the same
      const put = onBlob(seam, file.hash).find((r) => r.method === 'PUT');
      expect(locks(put)).toEqual({});
      expect(put?.headers).not.toHaveProperty('x-amz-checksum-sha256');
      expect(retentionCalls(seam)).toEqual([]);
      expect(await store.exists(file.hash)).toBe(true);
    }
  });
});
