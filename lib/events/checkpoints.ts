// Signed checkpoints of the event log: every AUDIT_CHECKPOINT_SECONDS each chain that grew since its
// last checkpoint gets one, {chain, seq, hash, at} signed with the audit key over its RFC 8785 JSON
// (docs/api.md, Events). One instance at a time makes them (the `checkpoint` job lease). With
// AUDIT_TSA_URL each also gets an RFC 3161 token (timestamp.ts) in checkpoint_timestamps, after
// the checkpoint is committed: an authority that is down or answers wrong never holds a checkpoint
// back; the next round asks again for every checkpoint still without a token.
import type { z } from 'zod';
import type { Tx } from '../db/client';
import { type Checkpoint, type CheckpointTimestamp, Prisma } from '../db/generated/client';
import { log } from '../log';
import type { CheckpointRecord as CheckpointRecordSchema } from '../schemas/events';
import { canonicalJson } from './canonical-json';
import { type Chain, chainName } from './chain';
import { type AuditKey, signBytes, verifyBytes } from './signing-key';
import { requestTimestamp } from './timestamp';

export type CheckpointRecord = z.infer<typeof CheckpointRecordSchema>;

/** The bytes a checkpoint's signature is over. */
export const checkpointPayload = (c: { chain: string; seq: number; hash: string; at: string }) =>
  canonicalJson({ chain: c.chain, seq: c.seq, hash: c.hash, at: c.at });

/** The one shape of a checkpoint record (verify, the auditor's export). Read rows with `include: { timestamp: true }`. */
export const presentCheckpoint = (row: Checkpoint & { timestamp?: CheckpointTimestamp | null }): CheckpointRecord => ({
  chain: chainName(row),
  seq: Number(row.seq),
  hash: row.hash,
  at: row.at.toISOString(),
  key_id: row.keyId,
  signature: row.signature,
  timestamp: row.timestamp ? { token: row.timestamp.token, gen_time: row.timestamp.genTime.toISOString() } : null,
});

export const checkpointSigned = (c: CheckpointRecord, publicKey: AuditKey['publicKey'] | string) =>
  verifyBytes(publicKey, checkpointPayload(c), c.signature);

/** The seq a chain_heads row `h` is checkpointed to: its last checkpoint's (on their primary key), 0 without one. */
export const CHECKPOINTED_SEQ = Prisma.sql`coalesce((SELECT max(c.seq) FROM checkpoints c WHERE c.owner_id = h.owner_id AND c.sandbox = h.sandbox), 0)`;

/**
 * Checkpoints every chain whose head moved past its last checkpoint (or only `only`, which the
 * auditor's export does when its last record has none yet). How many it made.
 */
export async function checkpointChains(db: Tx, key: AuditKey, now = new Date(), only?: Chain): Promise<number> {
  const grown = await db.$queryRaw<{ owner_id: string; sandbox: boolean; seq: bigint; hash: string }[]>`
    SELECT h.owner_id::text, h.sandbox, h.seq, h.hash FROM chain_heads h
    WHERE h.seq > ${CHECKPOINTED_SEQ}
      ${only ? Prisma.sql`AND h.owner_id = ${only.ownerId}::uuid AND h.sandbox = ${only.sandbox}` : Prisma.empty}`;
  const at = new Date(Math.floor(now.getTime()));
  for (const h of grown) {
    const record = {
      chain: chainName({ ownerId: h.owner_id, sandbox: h.sandbox }),
      seq: Number(h.seq),
      hash: h.hash,
      at: at.toISOString(),
    };
    await db.checkpoint.createMany({
      data: [
        {
          ownerId: h.owner_id,
          sandbox: h.sandbox,
          seq: h.seq,
          hash: h.hash,
          at,
          keyId: key.keyId,
          signature: signBytes(key, checkpointPayload(record)),
        },
      ],
      skipDuplicates: true, // another instance made the same one meanwhile
    });
  }
  return grown.length;
}

export interface TsaOptions {
  url: string;
  /** PEM of AUDIT_TSA_CERT */
  pinned?: string;
  timeoutMs?: number;
  /** at most this many tokens a round (the oldest checkpoints without one first) */
  limit?: number;
}

/**
 * Asks the authority for a token of each checkpoint that has none, oldest first, and keeps those
 * that check out. A failure is logged and leaves the checkpoint for the next round; the first
 * failure ends this round (the authority is likely down). How many tokens it kept.
 */
export async function timestampCheckpoints(db: Tx, tsa: TsaOptions): Promise<number> {
  const rows = await db.checkpoint.findMany({
    where: { timestamp: null },
    orderBy: { at: 'asc' },
    take: tsa.limit ?? 100,
  });
  let kept = 0;
  for (const row of rows) {
    const record = presentCheckpoint(row);
    let stamp: Awaited<ReturnType<typeof requestTimestamp>>;
    try {
      stamp = await requestTimestamp(tsa.url, checkpointPayload(record), { pinned: tsa.pinned, timeoutMs: tsa.timeoutMs });
    } catch (err) {
      log.warn({ err, chain: record.chain, seq: record.seq }, 'no time-stamp for an event log checkpoint (asked again next round)');
      break;
    }
    await db.checkpointTimestamp.createMany({
      data: [{ ownerId: row.ownerId, sandbox: row.sandbox, seq: row.seq, token: stamp.token, genTime: stamp.genTime }],
      skipDuplicates: true,
    });
    kept++;
  }
  return kept;
}
