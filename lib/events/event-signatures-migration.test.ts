// Migration event_signatures on a database that already has records: each chain's signed_from is
// its head then (those records keep their hash and need no sig), a chain begun later starts at 0,
// and a record appended after carries "sig" in its hashed text. verify then accepts the old
// unsigned records and names an unsigned one after signed_from (record-signature.test.ts's world).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedBefore, testId } from '../testing/migrated-before';
import { systemActor } from './catalogue';
import { canonicalJson } from './canonical-json';
import { GENESIS_HASH, presentEvent, recordHash } from './record';
import { recordSigned, recordSigOk } from './record-signature';
import { loadedAuditKey } from './signing-key';

type Db = Awaited<ReturnType<typeof migratedBefore>>;
let db: Db;
const owner = testId(1);
const actor = canonicalJson(systemActor('test') as never);
const rows = async () =>
  (
    await db.sql.query<Record<string, unknown>>(
      `SELECT id::text, owner_id::text AS "ownerId", sandbox, seq, at, type, actor, entry_id::text AS "entryId", file_id::text AS "fileId",
        version, data, request_id AS "requestId", prev_hash AS "prevHash", hash, sig FROM events WHERE owner_id = '${owner}' ORDER BY seq`,
    )
  ).map((r) => presentEvent({ ...r, seq: BigInt(r.seq as number), at: new Date(r.at as string) } as never));

describe('migration event_signatures', () => {
  beforeAll(async () => {
    db = await migratedBefore('event_signatures');
    await db.sql.exec(`INSERT INTO owners (id, name) VALUES ('${owner}', 'Upgraded')`);
    for (let i = 0; i < 2; i++)
      await db.sql.exec(`SELECT silo_append_events(ARRAY['${randomUUID()}']::uuid[], '${owner}', false, ARRAY['entry.created'],
        '${actor}', NULL, NULL, ARRAY[NULL]::int[], ARRAY['{"i":${i}}'], NULL)`);
    await db.migrateRest();
  }, 120_000);
  afterAll(() => db?.close());

  it("starts each existing chain's signatures after its head; older records keep their hash without a sig", async () => {
    const heads = await db.sql.query<{ sandbox: boolean; signed_from: string | number }>(
      `SELECT sandbox, signed_from FROM chain_heads WHERE owner_id = '${owner}'`,
    );
    expect(heads.map((h) => Number(h.signed_from))).toEqual([2]);
    const old = await rows();
    expect(old.map((r) => [r.seq, r.sig, recordHash(r) === r.hash])).toEqual([
      [1, undefined, true],
      [2, undefined, true],
    ]);
    expect(old[0].prev_hash).toBe(GENESIS_HASH);

    const key = loadedAuditKey();
    const id = randomUUID();
    const sig = recordSigned(key, { actor: systemActor('test') as never, id, request_id: null, type: 'entry.created' });
    await db.sql.exec(`SELECT silo_append_events(ARRAY['${id}']::uuid[], '${owner}', false, ARRAY['entry.created'],
      '${actor}', NULL, NULL, ARRAY[NULL]::int[], ARRAY['{}'], NULL, ARRAY['${sig}'])`);
    // a chain begun now signs from its first record
    await db.sql.exec(`SELECT silo_append_events(ARRAY['${randomUUID()}']::uuid[], '${owner}', true, ARRAY['entry.created'],
      '${actor}', NULL, NULL, ARRAY[NULL]::int[], ARRAY['{}'], NULL, ARRAY[NULL]::text[])`);
    const sandbox = await db.sql.query<{ signed_from: string | number }>(
      `SELECT signed_from FROM chain_heads WHERE owner_id = '${owner}' AND sandbox`,
    );
    expect(Number(sandbox[0].signed_from)).toBe(0);
    const now = (await rows()).filter((r) => !r.sandbox);
    expect(now[2]).toMatchObject({ seq: 3, sig, prev_hash: now[1].hash });
    expect(recordHash(now[2])).toBe(now[2].hash);
    expect(recordSigOk(now[2], key.publicKey)).toBe(true);
  });
});
