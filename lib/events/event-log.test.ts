// The event log's core on both databases: the database's canonical JSON is RFC 8785's (the same
// text as canonical-json.ts), records chain without gaps under concurrent appends, the log refuses
// UPDATE and DELETE whoever sends them, and verify names the first record that was changed.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { appendEvent } from './append-event';
import { canonicalJson, type Json } from './canonical-json';
import { systemActor } from './catalogue';
import { presentEvent, recordHash } from './record';
import { checkpointChains } from './checkpoints';
import { auditKeyOf, loadedAuditKey } from './signing-key';
import { verifyChain } from './verify-chain';

const key = loadedAuditKey(); // the key that signs the records (lib/testing/audit-key-setup.ts)

/** RFC 8785 §3.2.3's example of key order. */
const RFC_8785_KEYS = {
  '\u20ac': 'Euro Sign',
  '\r': 'Carriage Return',
  '\ufb33': 'Hebrew Letter Dalet With Dagesh',
  '1': 'One',
  '\u{1f600}': 'Emoji: Grinning Face',
  '\u0080': 'Control',
  '\u00f6': 'Latin Small Letter O With Diaeresis',
};

describe('canonicalJson', () => {
  it("sorts keys by UTF-16 code units as RFC 8785's example does", () => {
    const value = RFC_8785_KEYS;
    // RFC 8785 §3.2.3: the emoji (a surrogate pair, D83D DE00) sorts before U+FB33 by code units, after it by code points.
    expect(canonicalJson(value)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\u{1f600}":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('writes literals, numbers and escapes as ECMAScript does, without whitespace', () => {
    expect(canonicalJson({ b: [true, false, null, 0, -5, 1e3], a: 'tab\there "q" \\ \u0001 \u007f é' })).toBe(
      '{"a":"tab\\there \\"q\\" \\\\ \\u0001 \u007f é","b":[true,false,null,0,-5,1000]}',
    );
  });
});

describe.each(testDatabases())('the event log on %s', (database) => {
  let w: TestWorld;
  let ownerId: string;
  const sql = (text: string) => w.db.sql.exec(text);
  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Acme' } })).id;
  });
  afterAll(() => w?.close());

  it('escapes any string exactly as ECMAScript does (the database splices the strings of a record)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })).filter((s) => !s.includes('\u0000')),
        async (s) => {
          const [row] = await w.db.prisma.$queryRaw<{ t: string }[]>`SELECT "silo_json_text"(${s}) AS t`;
          expect(row.t).toBe(JSON.stringify(s));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("writes a version's data as canonical JSON, as canonical-json.ts would", async () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: text,
          category: fc.constantFrom('format', 'attachment'),
          key: fc.option(text, { nil: null }),
          mime: text,
          size: fc.integer({ min: 0, max: 5 * 2 ** 30 }),
          sha256: fc.stringMatching(/^[0-9a-f]{64}$/),
          placeholder: fc.option(fc.boolean(), { nil: undefined }),
          from: fc.option(fc.record({ id: fc.uuid(), version: fc.integer({ min: 1, max: 1e6 }) }), { nil: undefined }),
        }),
        async (f) => {
          const [row] = await w.db.prisma.$queryRaw<{ t: string }[]>`
            SELECT "silo_file_event_data"(${f.name}, ${f.category}, ${f.key}, ${f.mime}, ${f.size}::bigint, ${f.sha256},
              ${f.placeholder ?? null}::boolean, ${f.from ? canonicalJson(f.from) : null}::text) AS t`;
          expect(row.t).toBe(canonicalJson(JSON.parse(JSON.stringify(f)) as Json));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('chains records without gaps under concurrent appends, each hash the SHA-256 of its canonical JSON', async () => {
    const chain = { ownerId, sandbox: true };
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        w.db.prisma.$transaction((tx) =>
          appendEvent(tx, {
            type: 'entry.created',
            ...chain,
            actor: systemActor('test'),
            entryId: randomUUID(),
            data: { name: `e ${i}`, meta: { 'ü😀': 'x' } },
          }),
        ),
      ),
    );
    const rows = await w.db.prisma.event.findMany({ where: chain, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const r of rows) expect(recordHash(presentEvent(r))).toBe(r.hash);
    expect(rows[0].prevHash).toBe('0'.repeat(64));
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 40, head: { seq: 40, hash: rows[39].hash } });
  });

  it('refuses UPDATE, DELETE and TRUNCATE of a record, in replica mode too', async () => {
    const chain = { ownerId, sandbox: false };
    await appendEvent(w.db.prisma, {
      type: 'workspace.renamed',
      ...chain,
      actor: systemActor('test'),
      data: { before: { name: 'A' }, after: { name: 'B' } },
    });
    await expect(sql(`UPDATE events SET data = '{}' WHERE owner_id = '${ownerId}'`)).rejects.toThrow(/append-only/);
    await expect(sql(`DELETE FROM events WHERE owner_id = '${ownerId}'`)).rejects.toThrow(/append-only/);
    await expect(sql('TRUNCATE events CASCADE')).rejects.toThrow(/append-only/);
    await expect(
      sql(`BEGIN; SET LOCAL session_replication_role = replica; DELETE FROM events WHERE owner_id = '${ownerId}'; COMMIT;`),
    ).rejects.toThrow(/append-only/);
    await sql('ROLLBACK').catch(() => {});
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 1 });
  });

  it('names the first record changed behind the triggers, and a record taken away', async () => {
    const owner = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Tampered' } })).id;
    const chain = { ownerId: owner, sandbox: false };
    for (let i = 0; i < 5; i++)
      await appendEvent(w.db.prisma, { type: 'entry.created', ...chain, actor: systemActor('test'), data: { name: `e ${i}` } });
    await sql(
      `BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; UPDATE events SET data = '{"name": "forged"}' WHERE owner_id = '${owner}' AND seq = 3; ALTER TABLE events ENABLE TRIGGER ALL; COMMIT;`,
    );
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      checked: 2,
      first_bad_seq: 3,
      reason: expect.stringMatching(/edited/),
    });
    await sql(
      `BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; DELETE FROM events WHERE owner_id = '${owner}' AND seq >= 3; ALTER TABLE events ENABLE TRIGGER ALL; COMMIT;`,
    );
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 3,
      reason: expect.stringMatching(/head is record 5/),
    });
  });

  it("lets a workspace's deletion take its records, keeping each chain's final head in the instance's log", async () => {
    const owner = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Gone' } })).id;
    for (const sandbox of [false, true])
      await appendEvent(w.db.prisma, { type: 'entry.created', ownerId: owner, sandbox, actor: systemActor('test'), data: {} });
    const heads = await w.db.prisma.chainHead.findMany({ where: { ownerId: owner }, orderBy: { sandbox: 'asc' } });
    await w.db.prisma.owner.delete({ where: { id: owner } });
    expect(await w.db.prisma.event.count({ where: { ownerId: owner } })).toBe(0);
    const kept = await w.db.prisma.deletedChain.findMany({ where: { ownerId: owner }, orderBy: { sandbox: 'asc' } });
    expect(kept.map((k) => [k.sandbox, k.seq, k.hash])).toEqual(heads.map((h) => [h.sandbox, h.seq, h.hash]));
    await expect(sql(`DELETE FROM deleted_chains WHERE owner_id = '${owner}'`)).rejects.toThrow(/append-only/);
  });

  it('signs a checkpoint of each chain that grew, and verify holds a rewritten chain to it', async () => {
    const owner = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Checked' } })).id;
    const chain = { ownerId: owner, sandbox: false };
    for (let i = 0; i < 5; i++)
      await appendEvent(w.db.prisma, { type: 'entry.created', ...chain, actor: systemActor('test'), data: { name: `e ${i}` } });
    expect(await checkpointChains(w.db.prisma, key)).toBeGreaterThanOrEqual(1);
    expect(await checkpointChains(w.db.prisma, key)).toBe(0); // nothing grew since
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 5, checkpoints: 1 });
    // A forger with the database's superuser rewrites record 3 and every hash after it, head included:
    // the chain alone checks out, the signed checkpoint does not.
    await sql(
      `BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; UPDATE events SET data = '{"name": "forged"}' WHERE owner_id = '${owner}' AND seq = 3; ALTER TABLE events ENABLE TRIGGER ALL; COMMIT;`,
    );
    const rows = await w.db.prisma.event.findMany({ where: chain, orderBy: { seq: 'asc' } });
    let prev = rows[1].hash;
    await sql('BEGIN; ALTER TABLE events DISABLE TRIGGER ALL;');
    for (const r of rows.slice(2)) {
      const record = { ...presentEvent(r), prev_hash: prev };
      prev = recordHash(record);
      await sql(`UPDATE events SET prev_hash = '${record.prev_hash}', hash = '${prev}' WHERE id = '${r.id}'`);
    }
    await sql(
      `UPDATE chain_heads SET hash = '${prev}' WHERE owner_id = '${owner}' AND sandbox = false; ALTER TABLE events ENABLE TRIGGER ALL; COMMIT;`,
    );
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 5,
      reason: expect.stringMatching(/not the record its signed checkpoint names/),
    });
  });

  it('refuses a checkpoint signed by another key', async () => {
    const owner = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Other key' } })).id;
    const chain = { ownerId: owner, sandbox: true };
    await appendEvent(w.db.prisma, { type: 'entry.created', ...chain, actor: systemActor('test'), data: {} });
    const other = auditKeyOf(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await checkpointChains(w.db.prisma, other);
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 1,
      reason: expect.stringMatching(/signed by key/),
    });
  });
});
