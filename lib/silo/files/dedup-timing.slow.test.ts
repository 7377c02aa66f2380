// Deduplication must not tell one workspace what another stored: storing bytes someone else holds
// takes as long as storing new bytes (blobs.ts, the stores' put and commitHeld, small blobs in the
// database), while identical bytes are still kept once.
//
// The test is the attacker: it stores each of 20 candidates (half of them held by another
// workspace) several times, deleting its copy after each, keeps each candidate's fastest store
// (the least noisy measure) and calls the faster half "held". Chance classifies 10 of 20 right on
// average; the old code (no write when the bytes existed) classified 20 of 20. Over RUNS runs the
// attacker must average at most 13 of 20: a fixed store does (chance alone exceeds 13 in 1 of 20,000
// runs of a test; the bound of 12 it had, 1 in 240, failed one of five such tests in about 1 suite
// in 50), and any leak that tells two in three apart on average does not.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import type { FileLimits } from '../../schemas/files';
import type { BlobStore } from '../../storage/blob-store';
import { DatabaseStore } from '../../storage/database-store';
import { S3Store } from '../../storage/s3-store';
import { testWorld, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, TEST_FILE_LIMITS, parseFileInput as parse, sha256 } from '../../testing/files';
import { createTestEntry } from '../../testing/owner';
import { startS3rver, type LocalS3 } from '../../testing/s3rver';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { receiveUpload } from './receive-upload';
import { TEST_ACTOR } from '../../testing/actor';

const CANDIDATES = 20;
const TRIES = 2;
const RUNS = 8;

let w: TestWorld;
let s3: LocalS3;
let victim: { scope: Scope; entryId: string };
let attacker: { scope: Scope; entryId: string };

beforeAll(async () => {
  [w, s3] = await Promise.all([testWorld(), startS3rver()]);
  victim = await createTestEntry(w.db.prisma, 'victim');
  attacker = await createTestEntry(w.db.prisma, 'attacker');
});
afterAll(async () => {
  await w?.close();
  await s3?.stop();
});

type How = 'inline' | 'upload';

/** Stores `bytes` in `who`'s entry as a client would (inline, or a placeholder then its upload); the stored file. */
async function store(st: BlobStore, limits: FileLimits, who: typeof victim, bytes: Buffer, how: How) {
  const db = w.db.prisma;
  const name = `c-${randomBytes(4).toString('hex')}.bin`;
  const input =
    how === 'inline'
      ? { name, data: bytes.toString('base64') }
      : { name, mime: 'application/octet-stream', size: bytes.length, sha256: sha256(bytes) };
  const { file } = await createFile({ db, store: st, scope: who.scope, entryId: who.entryId, input: parse(input), limits });
  if (how === 'inline') return file;
  const done = await receiveUpload({ db, store: st, file, source: [bytes], contentRange: null });
  if (done.kind !== 'stored') throw new Error(`upload not stored: ${done.kind}`);
  return done.file;
}

/** One attack: how many of the candidates the faster-half rule classifies right. */
async function attack(st: BlobStore, limits: FileLimits, size: number, how: How): Promise<number> {
  const candidates = Array.from({ length: CANDIDATES }, (_, i) => ({ bytes: randomBytes(size), held: i % 2 === 0, best: Infinity }));
  const victimFiles = [];
  for (const c of candidates) if (c.held) victimFiles.push(await store(st, limits, victim, c.bytes, how));
  for (let t = 0; t < TRIES; t++) {
    for (const c of shuffled(candidates)) {
      const start = process.hrtime.bigint();
      const file = await store(st, limits, attacker, c.bytes, how);
      c.best = Math.min(c.best, Number(process.hrtime.bigint() - start));
      await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: st, file });
    }
  }
  const median = [...candidates.map((c) => c.best)].sort((a, b) => a - b)[CANDIDATES / 2 - 1];
  const right = candidates.filter((c) => c.best <= median === c.held).length;
  // Dedup still saves the space: the victim's bytes are there once, and nothing else is kept.
  await expectOneCopyEach(
    st,
    candidates.filter((c) => c.held).map((c) => sha256(c.bytes)),
  );
  for (const file of victimFiles) await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: st, file });
  return right;
}

async function expectOneCopyEach(st: BlobStore, hashes: string[]) {
  // The store as readers see it lists each once, wherever it keeps them.
  const listed: string[] = [];
  for await (const b of st.listBlobs()) listed.push(b.hash);
  expect(listed.filter((h) => hashes.includes(h)).sort()).toEqual([...hashes].sort());
  // The store it wraps, alone (the database's copies are its rows, below).
  const inStore: string[] = [];
  for await (const b of (st instanceof DatabaseStore ? st.inner : st).listBlobs()) inStore.push(b.hash);
  const rows = await w.db.prisma.$queryRaw<{ hash: string; n: number }[]>`
    SELECT hash, count(*)::int AS n FROM blobs WHERE hash = ANY(${hashes}::text[]) GROUP BY hash`;
  expect(rows.map((r) => [r.hash, r.n]).sort()).toEqual(hashes.map((h) => [h, 1]).sort());
  // In the store, unless the database keeps them (small blobs); never twice, never a held copy left.
  const stored =
    rows.length &&
    (
      await w.db.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM blobs WHERE hash = ANY(${hashes}::text[]) AND data IS NULL`
    )[0].n;
  expect(inStore.filter((h) => hashes.includes(h)).length).toBe(stored);
  expect(new Set(inStore).size).toBe(inStore.length);
  expect(await st.listHeld()).toEqual([]);
}

function shuffled<T>(xs: T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function expectNoBetterThanChance(st: () => BlobStore, limits: FileLimits, size: number, how: How) {
  const rights: number[] = [];
  for (let r = 0; r < RUNS; r++) rights.push(await attack(st(), limits, size, how));
  const mean = rights.reduce((a, b) => a + b, 0) / RUNS;
  expect(mean, `classified right per run: ${rights.join(', ')}`).toBeLessThanOrEqual(13);
}

// Each test makes about 2 × RUNS × CANDIDATES × TRIES stores and deletes: 0.5–2.5 minutes on a loaded 2-core machine.
describe('storing bytes another workspace holds takes as long as storing new bytes', { timeout: 600_000 }, () => {
  it('on local disk, inline (~300 KB)', async () => {
    await expectNoBetterThanChance(() => w.store, TEST_FILE_LIMITS, 300_000, 'inline');
  });

  it('on local disk, by upload (~300 KB)', async () => {
    await expectNoBetterThanChance(() => w.store, TEST_FILE_LIMITS, 300_000, 'upload');
  });

  it('in the database (small blobs, ~100 KB)', async () => {
    await expectNoBetterThanChance(() => w.store, SMALL_BLOB_LIMITS, 100_000, 'inline');
  });

  it.each(['inline', 'upload'] as const)('on S3, %s (~300 KB)', async (how) => {
    const st = new S3Store({ client: s3.client(), bucket: await s3.createBucket(`dedup-${how}`) });
    await expectNoBetterThanChance(() => st, TEST_FILE_LIMITS, 300_000, how);
  });
});
