// The sweep of unreferenced blobs: it frees every blob no stored file refers to, never a referenced
// one, and never the bytes an upload is placing (the window between commitHeld and the commit of
// the file row that refers to them).
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withEntryWorld } from '../../testing/owner';
import type { Scope } from '../../db/scope';
import { testDatabases, type TestWorld } from '../../testing/database';
import { withPlacedBlob } from './blobs';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { makeCurrent } from './replace-file';
import { TEST_ACTOR } from '../../testing/actor';
import { sweepBlobs, sweepHorizon } from './sweep-blobs';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';
import { untilBlocked, watchedClient } from '../../testing/waiting';
import { DatabaseStore } from '../../storage/database-store';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(testDatabases())('sweepBlobs (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  withEntryWorld(database, (made) => ({ w, scope, entryId } = made));

  const create = (input: object) => createFile({ db: w.db.prisma, store: w.store, scope, entryId, input: parse(input), limits: LIMITS });
  /** Bytes in the store that no file row refers to: what a crash between placing and recording leaves. */
  const orphan = async (text: string) => {
    const got = await w.store.receive(`orphan-${sha(text).slice(0, 8)}`, [Buffer.from(text)], { offset: 0, maxBytes: 1e6 });
    await w.store.commitHeld(`orphan-${sha(text).slice(0, 8)}`, got.hash);
    return got.hash;
  };

  it('frees every blob no stored file refers to, and never a referenced one', async () => {
    const kept = (await create({ name: 'kept.txt', data: b64('kept bytes') })).file;
    const shared = 'bytes of two files';
    const a = (await create({ name: 'a.txt', data: b64(shared) })).file;
    await create({ name: 'b.txt', data: b64(shared) });
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: a });
    // a placeholder declaring some bytes does not keep them: only stored files refer
    const declared = await orphan('declared by a placeholder only');
    await create({ name: 'p.pdf', mime: 'application/pdf', sha256: declared, size: 30 });
    const crashed = [await orphan('left by a crash 1'), await orphan('left by a crash 2')];
    // a row of the blobs table whose bytes are gone
    const ghost = sha('ghost');
    await w.db.prisma.$executeRaw`INSERT INTO blobs (hash, size) VALUES (${ghost}, 5)`;

    const swept = await sweepBlobs(w.db.prisma, w.store);
    expect(swept).toEqual({ checked: 5, unreferenced: 3, freed: 3 });
    for (const h of [...crashed, declared]) expect(await w.store.exists(h)).toBe(false);
    expect(await w.store.exists(kept.hash)).toBe(true);
    expect(await w.store.exists(sha(shared))).toBe(true);
    expect(await w.db.prisma.blob.count({ where: { hash: ghost } })).toBe(0);
    expect(await sweepBlobs(w.db.prisma, w.store)).toEqual({ checked: 2, unreferenced: 0, freed: 0 });
  });

  it("leaves alone blobs older than its database's first sweep (they may be another database's); fsck --fix may free them", async () => {
    const horizon = await sweepHorizon(w.db.prisma);
    expect(await sweepHorizon(w.db.prisma)).toEqual(horizon);
    const old = await orphan('placed before this database swept: maybe a neighbour');
    const hourBefore = new Date(horizon.getTime() - 3600_000);
    await utimes(path.join(w.storeDir, 'sha256', old.slice(0, 2), old), hourBefore, hourBefore);
    const recent = await orphan('placed after: surely ours');
    expect(await sweepBlobs(w.db.prisma, w.store, { placedAfter: horizon })).toMatchObject({ unreferenced: 2, freed: 1 });
    expect(await w.store.exists(old)).toBe(true);
    expect(await w.store.exists(recent)).toBe(false);
    expect(await sweepBlobs(w.db.prisma, w.store)).toMatchObject({ unreferenced: 1, freed: 1 });
    expect(await w.store.exists(old)).toBe(false);
  });

  it('never takes the bytes an upload is placing, before its file row commits (x10)', async () => {
    for (let i = 0; i < 10; i++) {
      const bytes = Buffer.from(`placed while sweeping ${i} ${Math.random()}`);
      const hash = sha(bytes);
      const p = (await create({ name: `race-${i}.bin`, mime: 'application/octet-stream', sha256: hash, size: bytes.length })).file;
      await w.store.receive(p.id, [bytes], { offset: 0, maxBytes: bytes.length });
      let inPlace!: () => void;
      const placedNow = new Promise<void>((r) => (inPlace = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const placing = withPlacedBlob(w.db.prisma, w.store, { uploadId: p.id, hash, size: bytes.length }, async (tx) => {
        inPlace();
        await gate;
        await makeCurrent(tx, p, { actor: TEST_ACTOR });
      });
      await placedNow;
      // On the disk itself: the placing transaction holds the embedded database's one connection.
      expect(await w.local.exists(hash)).toBe(true);
      // The sweep on a client of its own, to know when it has asked the database.
      const watched = watchedClient(w.db.prisma);
      const sweeping = sweepBlobs(watched.db, new DatabaseStore(watched.db, w.local, { keepUpTo: 0 }));
      await untilBlocked(w, sweeping, watched.asked);
      release();
      await Promise.all([placing, sweeping]);
      expect(await w.store.exists(hash)).toBe(true);
      expect((await w.db.prisma.file.findUniqueOrThrow({ where: { id: p.id } })).stored).toBe(true);
    }
  });
});
