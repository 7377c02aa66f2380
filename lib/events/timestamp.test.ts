// RFC 3161 time-stamps of checkpoints on both databases, against a real time-stamp authority on
// loopback (lib/testing/test-tsa.ts): tokens are fetched, kept beside the checkpoint and checked by
// verify; an authority that is down or answers wrong never holds a checkpoint back and is asked
// again next round; a token changed, swapped or from an unpinned authority is named by verify.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { startTestTsa, type TestTsa } from '../testing/test-tsa';
import { appendEvent } from './append-event';
import { systemActor } from './catalogue';
import { checkpointChains, checkpointPayload, presentCheckpoint, timestampCheckpoints } from './checkpoints';
import { loadedAuditKey } from './signing-key';
import { checkTimestamp, requestTimestamp } from './timestamp';
import { verifyChain } from './verify-chain';

/** The CA of another authority (started only to make its certificates). */
async function strangerCa(): Promise<string> {
  const t = await startTestTsa();
  await t.close();
  return t.caPem;
}

const key = loadedAuditKey(); // the key that signs the records (lib/testing/audit-key-setup.ts)

describe.each(testDatabases())('checkpoint time-stamps on %s', (database) => {
  let w: TestWorld;
  let tsa: TestTsa;
  const sql = (text: string) => w.db.sql.exec(text);
  beforeAll(async () => {
    w = await testWorld({ database });
    tsa = await startTestTsa();
  });
  afterAll(async () => {
    await tsa?.close();
    await w?.close();
  });

  /** A chain of a new workspace with `n` records and a checkpoint of them; every earlier checkpoint already has its token. */
  async function checkpointed(n = 3) {
    tsa.mode = 'good';
    await timestampCheckpoints(w.db.prisma, { url: tsa.url });
    const chain = { ownerId: (await w.db.prisma.owner.create({ data: { id: randomUUID(), name: 'Stamped' } })).id, sandbox: false };
    for (let i = 0; i < n; i++)
      await appendEvent(w.db.prisma, { type: 'entry.created', ...chain, actor: systemActor('test'), data: { name: `e ${i}` } });
    expect(await checkpointChains(w.db.prisma, key)).toBe(1);
    return chain;
  }
  const record = async (chain: { ownerId: string; sandbox: boolean }) =>
    presentCheckpoint(await w.db.prisma.checkpoint.findFirstOrThrow({ where: chain, include: { timestamp: true } }));

  it("keeps the authority's token of each checkpoint's payload beside it, and verify checks it", async () => {
    const chain = await checkpointed();
    expect((await record(chain)).timestamp).toBeNull();
    expect(await timestampCheckpoints(w.db.prisma, { url: tsa.url, pinned: tsa.caPem })).toBe(1);
    expect(await timestampCheckpoints(w.db.prisma, { url: tsa.url })).toBe(0); // each gets one
    const cp = await record(chain);
    expect(cp.timestamp).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/), gen_time: expect.any(String) });
    expect(Math.abs(Date.parse(cp.timestamp?.gen_time ?? '') - Date.now())).toBeLessThan(60_000);
    expect((await checkTimestamp(cp.timestamp?.token ?? '', checkpointPayload(cp))).toISOString()).toBe(cp.timestamp?.gen_time);
    expect(await verifyChain(w.db.prisma, chain, key, { tsaCert: tsa.caPem })).toMatchObject({
      ok: true,
      checkpoints: 1,
      timestamps: 1,
      last_checkpoint: cp,
    });
  });

  it('keeps a checkpoint without a token while the authority is down or answers wrong, and fetches it on a later round', async () => {
    const chain = await checkpointed();
    const down = await startTestTsa();
    await down.close();
    expect(await timestampCheckpoints(w.db.prisma, { url: down.url, timeoutMs: 2_000 })).toBe(0);
    for (const mode of ['garbage', 'refuse', 'wrong-nonce', 'other-imprint', 'no-eku'] as const) {
      tsa.mode = mode;
      const asked = tsa.requests;
      expect(await timestampCheckpoints(w.db.prisma, { url: tsa.url }), mode).toBe(0);
      expect(tsa.requests, mode).toBe(asked + 1);
    }
    tsa.mode = 'good';
    expect(await timestampCheckpoints(w.db.prisma, { url: tsa.url, pinned: await strangerCa() })).toBe(0); // not the pinned authority
    expect((await record(chain)).timestamp).toBeNull();
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checkpoints: 1, timestamps: 0 });
    expect(await timestampCheckpoints(w.db.prisma, { url: tsa.url })).toBe(1);
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({ ok: true, checkpoints: 1, timestamps: 1 });
  });

  it('names the checkpoint whose token had a byte changed behind the triggers', async () => {
    const chain = await checkpointed(2);
    await timestampCheckpoints(w.db.prisma, { url: tsa.url });
    const token = Buffer.from((await record(chain)).timestamp?.token ?? '', 'base64');
    token[token.length - 10] ^= 0x01;
    await sql(
      `BEGIN; ALTER TABLE checkpoint_timestamps DISABLE TRIGGER ALL; UPDATE checkpoint_timestamps SET token = '${token.toString('base64')}' WHERE owner_id = '${chain.ownerId}'; ALTER TABLE checkpoint_timestamps ENABLE TRIGGER ALL; COMMIT;`,
    );
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 2,
      reason: expect.stringMatching(/checkpoint at record 2 has a bad time-stamp: .*signature does not verify/),
    });
  });

  it("names a checkpoint kept with a token of another payload, and one from an authority AUDIT_TSA_CERT doesn't pin", async () => {
    const chain = await checkpointed(4);
    const cp = await record(chain);
    const other = await requestTimestamp(tsa.url, checkpointPayload({ ...cp, seq: 3 }));
    await w.db.prisma.checkpointTimestamp.create({ data: { ...chain, seq: 4n, token: other.token, genTime: other.genTime } });
    expect(await verifyChain(w.db.prisma, chain, key)).toMatchObject({
      ok: false,
      first_bad_seq: 4,
      reason: expect.stringMatching(/bad time-stamp: the time-stamp token is for other bytes/),
    });

    const next = await checkpointed(1);
    await timestampCheckpoints(w.db.prisma, { url: tsa.url });
    expect(await verifyChain(w.db.prisma, next, key, { tsaCert: tsa.caPem })).toMatchObject({ ok: true, timestamps: 1 });
    expect(await verifyChain(w.db.prisma, next, key, { tsaCert: await strangerCa() })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/neither AUDIT_TSA_CERT nor issued by it/),
    });
  });

  it('refuses UPDATE and DELETE of a token, and lets a deleted workspace take its tokens', async () => {
    const chain = await checkpointed(1);
    await timestampCheckpoints(w.db.prisma, { url: tsa.url });
    await expect(sql(`UPDATE checkpoint_timestamps SET token = 'x' WHERE owner_id = '${chain.ownerId}'`)).rejects.toThrow(/append-only/);
    await expect(sql(`DELETE FROM checkpoint_timestamps WHERE owner_id = '${chain.ownerId}'`)).rejects.toThrow(/append-only/);
    await w.db.prisma.owner.delete({ where: { id: chain.ownerId } });
    expect(await w.db.prisma.checkpointTimestamp.count({ where: { ownerId: chain.ownerId } })).toBe(0);
  });
});
