// Writes racing the DELETE of their entry, and a restore racing a legal hold (SECURITY.md, "Races
// answer 4xx, never 500"): each answers success or a 4xx, never a 500 (a foreign key on the entry,
// a deadlock), and nothing is left half: no file without its slot or without its record, no record
// of a write that answered 404.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../db/scope';
import { isApiError } from '../errors';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { parseFileInput as parse, SMALL_BLOB_LIMITS, sha256, TEST_FILE_LIMITS } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { deleteEntry } from './delete-entry';
import { createFile } from './files/create-file';
import { makeLink, revokeLinks } from './files/file-links';
import { receiveUpload } from './files/receive-upload';
import { restoreFile } from './files/restore-file';
import { setLegalHold } from './retention/set-legal-hold';
import { updateEntry } from './update-entry';

const ROUNDS = 30;
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** 'ok' or the 4xx's key; anything else (a 500, a raw database error) is 'unexpected: …'. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err) => {
      if (isApiError(err) && err.status < 500) return err.key;
      const e = err as { code?: string; message?: string };
      return `unexpected: ${e.code} ${e.message?.split('\n').filter(Boolean).pop()?.slice(0, 200)}`;
    },
  );

describe.each(testDatabases())('writes racing their entry’s DELETE (%s)', (database) => {
  let w: TestWorld;
  let ownerId: string;
  let scope: Scope;

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, `entry-races-${database}`)).id;
    scope = { owners: [ownerId], sandbox: false };
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const newEntry = async () => (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'e' } })).id;
  const put = (entryId: string, id: string, name: string, data: string, limits = SMALL_BLOB_LIMITS) =>
    createFile({ db: db(), store: w.store, scope, entryId, id, input: parse({ name, data: b64(data) }), limits });
  const remove = (entryId: string) => deleteEntry({ db: db(), store: w.store, scope, id: entryId, actor: TEST_ACTOR });

  /** Nothing stored half: every file has its slot and its entry, every slot its entry. */
  async function expectWhole() {
    const [half] = await db().$queryRaw<{ files: number; slots: number }[]>`
      SELECT (SELECT count(*)::int FROM files f WHERE NOT EXISTS (SELECT 1 FROM file_slots s WHERE s.id = f.slot_id)
                OR NOT EXISTS (SELECT 1 FROM entries e WHERE e.id = f.entry_id)) AS files,
             (SELECT count(*)::int FROM file_slots s WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.id = s.entry_id)
                OR (s.current_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM files f WHERE f.id = s.current_id))) AS slots`;
    expect(half).toEqual({ files: 0, slots: 0 });
  }

  /** The records naming file `id` of `type`: one when the write answered ok, none when it answered 404. */
  const records = (id: string, type: string) => db().event.count({ where: { fileId: id, type } });

  /** `write(entryId)` racing the entry's DELETE, ROUNDS times: ok or not_found, never anything else. */
  async function race(prepare: (entryId: string) => Promise<(entryId: string) => Promise<unknown>>, check?: (r: string) => Promise<void>) {
    const seen: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const entryId = await newEntry();
      const write = await prepare(entryId);
      const [written, deleted] = await Promise.all([outcome(write(entryId)), outcome(remove(entryId))]);
      seen.push(written);
      expect([written, deleted].filter((r) => r !== 'ok' && r !== 'not_found')).toEqual([]);
      expect(deleted).toBe('ok');
      await check?.(written);
    }
    await expectWhole();
    return seen;
  }

  it(`a new file (inline, small and large) racing the entry's DELETE answers ok or 404 (${ROUNDS} rounds)`, async () => {
    for (const limits of [SMALL_BLOB_LIMITS, TEST_FILE_LIMITS]) {
      let id = '';
      await race(
        async () => async (entryId) => {
          id = randomUUID();
          return put(entryId, id, 'a.txt', `new ${id}`, limits);
        },
        async (r) => expect(await records(id, 'file.created')).toBe(r === 'ok' ? 1 : 0),
      );
    }
  });

  it(`a replacement racing the entry's DELETE answers ok or 404 (${ROUNDS} rounds)`, async () => {
    let id = '';
    await race(
      async (entryId) => {
        await put(entryId, randomUUID(), 'same.txt', 'first');
        return async () => {
          id = randomUUID();
          return put(entryId, id, 'same.txt', `second ${id}`);
        };
      },
      async (r) => expect(await records(id, 'file.created')).toBe(r === 'ok' ? 1 : 0),
    );
  });

  it(`a placeholder's upload completing racing the entry's DELETE answers ok or 404 (${ROUNDS} rounds)`, async () => {
    await race(async (entryId) => {
      const bytes = Buffer.from(`uploaded ${randomUUID()}`);
      const input = parse({ name: 'p.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length });
      const { file } = await createFile({ db: db(), store: w.store, scope, entryId, input, limits: TEST_FILE_LIMITS });
      return async () => receiveUpload({ db: db(), store: w.store, file, source: [bytes], contentRange: null });
    });
  });

  it(`a restore racing the entry's DELETE answers ok or 404 (${ROUNDS} rounds)`, async () => {
    await race(async (entryId) => {
      const first = (await put(entryId, randomUUID(), 'r.txt', `one ${entryId}`)).file;
      await put(entryId, randomUUID(), 'r.txt', `two ${entryId}`);
      return async () => restoreFile({ db: db(), store: w.store, version: first });
    });
  });

  it(`an entry's PATCH racing its DELETE answers ok or 404 (${ROUNDS} rounds)`, async () => {
    await race(async () => async (id) => updateEntry({ db: db(), scope, id, patch: { name: 'renamed' }, actor: TEST_ACTOR }));
  });

  it(`a file's links made and revoked racing the entry's DELETE answer ok or 404 (${ROUNDS} rounds)`, async () => {
    const signer = { base: 'http://silo.test', secret: 's'.repeat(32) };
    await race(async (entryId) => {
      const { file } = await put(entryId, randomUUID(), 'l.txt', `links ${entryId}`);
      return async () => Promise.all([makeLink(db(), signer, file, 60, TEST_ACTOR), revokeLinks(db(), file, TEST_ACTOR)]);
    });
  });

  it(`a restore racing a legal hold both answer ok (${ROUNDS} rounds)`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const entryId = await newEntry();
      const first = (await put(entryId, randomUUID(), 'h.txt', `one ${i}`)).file;
      await put(entryId, randomUUID(), 'h.txt', `two ${i}`);
      const results = await Promise.all([
        outcome(restoreFile({ db: db(), store: w.store, version: first })),
        outcome(setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'r' }, actor: TEST_ACTOR })),
      ]);
      expect(results).toEqual(['ok', 'ok']);
      // The hold covers every version, the restored one included, whichever committed first.
      expect(await db().file.count({ where: { entryId, legalHold: false } })).toBe(0);
    }
    await expectWhole();
  });
});
