// Record signatures and witnesses on both databases: a record appended through SQL by someone
// without the audit key is named by verify (no signature, or one of another key); signed_from
// never moves; a cut tail passes verify alone but is named, by its first missing seq, by a witness
// a client kept (the Silo-Event header's value, from the statement that appended the record).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { withRequestId } from '../log';
import { appendEvent } from './append-event';
import { systemActor } from './catalogue';
import { checkpointChains } from './checkpoints';
import { presentEvent } from './record';
import { recordSigned, recordSigOk, signedPayload } from './record-signature';
import { auditKeyOf, loadedAuditKey } from './signing-key';
import { verifyChain } from './verify-chain';
import { parseWitnessHeader, witnessHeader } from './witness';

const key = loadedAuditKey();

describe.each(testDatabases())('record signatures on %s', (database) => {
  let w: TestWorld;
  const sql = (text: string) => w.db.sql.exec(text);
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  async function chainOf(n: number) {
    const ownerId = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Signed' } })).id;
    const witnesses: string[] = [];
    for (let i = 0; i < n; i++)
      witnesses.push(
        await withRequestId(`req-${i}`, async () => {
          await appendEvent(w.db.prisma, { type: 'entry.created', ownerId, sandbox: false, actor: systemActor('test'), data: { i } });
          return witnessHeader() as string;
        }),
      );
    return { chain: { ownerId, sandbox: false }, witnesses };
  }

  /** What someone with the app's SQL role can do: call silo_append_events with a sig of their own (or none). */
  const forge = (ownerId: string, sig: string | null) =>
    sql(`SELECT silo_append_events(ARRAY['${randomUUID()}']::uuid[], '${ownerId}', false, ARRAY['legal_hold.cleared'],
      '{"type":"admin_key"}', NULL, NULL, ARRAY[NULL]::int[], ARRAY['{}'], NULL, ARRAY[${sig === null ? 'NULL' : `'${sig}'`}]::text[])`);

  it('signs each record over {actor, id, request_id, type}, checkable with the public key alone', async () => {
    const { chain } = await chainOf(2);
    const rows = await w.db.prisma.event.findMany({ where: chain, orderBy: { seq: 'asc' } });
    const r = presentEvent(rows[1]);
    expect(signedPayload(r)).toBe(
      `{"actor":{"id":null,"name":"test","type":"system"},"id":"${r.id}","request_id":"req-1","type":"entry.created"}`,
    );
    expect(recordSigOk(r, key.publicPem)).toBe(true);
    expect(recordSigOk({ ...r, type: 'entry.deleted' }, key.publicPem)).toBe(false);
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 2, unsigned_before: 0 });
  });

  it('names a record appended through SQL, unsigned or signed with another key, and the checkpoint signed over it', async () => {
    const { chain } = await chainOf(2);
    await forge(chain.ownerId, null);
    await checkpointChains(w.db.prisma, key);
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      checked: 2,
      first_bad_seq: 3,
      reason: "record 3 was not written by this instance's server: no signature",
    });
    const other = auditKeyOf(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const second = await chainOf(1);
    await forge(second.chain.ownerId, recordSigned(other, { actor: { type: 'admin_key' }, id: randomUUID(), request_id: null, type: 'x' }));
    expect(await verifyChain(w.db.prisma, second.chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 2,
      reason: "record 2 was not written by this instance's server: bad signature",
    });
  });

  it("never moves a chain's signed_from, and a new head begins at 0", async () => {
    const { chain } = await chainOf(1);
    await expect(sql(`UPDATE chain_heads SET signed_from = 5 WHERE owner_id = '${chain.ownerId}'`)).rejects.toThrow(/never changes/);
    await expect(
      sql(
        `BEGIN; SET LOCAL session_replication_role = replica; UPDATE chain_heads SET signed_from = 5 WHERE owner_id = '${chain.ownerId}'; COMMIT;`,
      ),
    ).rejects.toThrow(/never changes/);
    await sql('ROLLBACK').catch(() => {});
    await expect(
      sql(
        `INSERT INTO chain_heads (owner_id, sandbox, seq, hash, signed_from) VALUES ('${chain.ownerId}', true, 9, '${'0'.repeat(64)}', 9)`,
      ),
    ).rejects.toThrow(/begins signed from 0/);
  });

  it('passes a cut tail alone, and names its first missing seq from a witness, with the checkpoints cut too', async () => {
    const { chain, witnesses } = await chainOf(5);
    await checkpointChains(w.db.prisma, key);
    const kept = witnesses.map((h) => parseWitnessHeader(h));
    expect(kept[4]).toMatchObject({ chain: `${chain.ownerId}/live`, seq: 5 });
    // a superuser takes records 4 and 5 and their checkpoint away and sets the head back
    await sql(`BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; ALTER TABLE checkpoints DISABLE TRIGGER ALL;
      DELETE FROM events WHERE owner_id = '${chain.ownerId}' AND seq > 3; DELETE FROM checkpoints WHERE owner_id = '${chain.ownerId}';
      UPDATE chain_heads SET seq = 3, hash = '${kept[2]?.hash}' WHERE owner_id = '${chain.ownerId}';
      ALTER TABLE events ENABLE TRIGGER ALL; ALTER TABLE checkpoints ENABLE TRIGGER ALL; COMMIT;`);
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 3 });
    expect(await verifyChain(w.db.prisma, chain, key, { witnesses: [kept[1], kept[4]] as never })).toMatchObject({
      ok: false,
      first_bad_seq: 5,
      reason: 'record 5 is missing: a witness kept it, but the records end at 3 (the tail was cut)',
    });
    // and grown again: record 5 is there, but not the one the witness kept
    for (let i = 0; i < 2; i++)
      await appendEvent(w.db.prisma, { type: 'entry.created', ...chain, actor: systemActor('test'), data: { regrown: i } });
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 5 });
    expect(await verifyChain(w.db.prisma, chain, key, { witnesses: [kept[4]] as never })).toMatchObject({
      ok: false,
      first_bad_seq: 5,
      reason: expect.stringMatching(/^record 5 is not the record a witness kept/),
    });
  });

  it("accepts records written before signatures up to the chain's signed_from, and names an unsigned one after", async () => {
    const ownerId = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Upgraded' } })).id;
    const chain = { ownerId, sandbox: false };
    for (let i = 0; i < 2; i++) await forge(ownerId, null); // as the server wrote them before signatures: no sig
    // what the upgrade's migration does to a chain that had records (its trigger comes after)
    await sql(`BEGIN; ALTER TABLE chain_heads DISABLE TRIGGER chain_heads_signed_from;
      UPDATE chain_heads SET signed_from = seq WHERE owner_id = '${ownerId}';
      ALTER TABLE chain_heads ENABLE TRIGGER chain_heads_signed_from; COMMIT;`);
    await appendEvent(w.db.prisma, { type: 'entry.created', ...chain, actor: systemActor('test'), data: {} });
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checked: 3, unsigned_before: 2 });
    await forge(ownerId, null);
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 4,
      unsigned_before: 2,
      reason: "record 4 was not written by this instance's server: no signature",
    });
  });

  it('names in Silo-Event no record of a transaction that rolled back, though the request goes on', async () => {
    const ownerId = (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Rolled back' } })).id;
    const append = (tx: Parameters<typeof appendEvent>[0]) =>
      appendEvent(tx, { type: 'entry.created', ownerId, sandbox: false, actor: systemActor('test'), data: {} });
    const named = await withRequestId('rolled-back', async () => {
      await append(w.db.prisma);
      const kept = witnessHeader();
      await w.db.prisma
        .$transaction(async (tx) => {
          await append(tx);
          expect(witnessHeader()).toMatch(/seq=2,/);
          throw new Error('conflict');
        })
        .catch(() => {});
      return [kept, witnessHeader()];
    });
    expect(named[0]).toMatch(/seq=1,/);
    expect(named[1]).toBe(named[0]);
  });
});
