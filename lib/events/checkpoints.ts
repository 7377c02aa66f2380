// Signed checkpoints of the event log: every AUDIT_CHECKPOINT_SECONDS each chain that grew since its
// last checkpoint gets one, {chain, seq, hash, at} signed with the audit key over its RFC 8785 JSON
// (docs/api.md, Events). One instance at a time makes them (the `checkpoint` job lease).
import type { Tx } from '../db/client';
import { type Checkpoint, Prisma } from '../db/generated/client';
import { canonicalJson } from './canonical-json';
import { type Chain, chainName } from './chain';
import { type AuditKey, signBytes, verifyBytes } from './signing-key';

export interface CheckpointRecord {
  chain: string;
  seq: number;
  hash: string;
  at: string;
  key_id: string;
  signature: string;
}

/** The bytes a checkpoint's signature is over. */
export const checkpointPayload = (c: { chain: string; seq: number; hash: string; at: string }) =>
  canonicalJson({ chain: c.chain, seq: c.seq, hash: c.hash, at: c.at });

export const presentCheckpoint = (row: Checkpoint): CheckpointRecord => ({
  chain: chainName(row),
  seq: Number(row.seq),
  hash: row.hash,
  at: row.at.toISOString(),
  key_id: row.keyId,
  signature: row.signature,
});

export const checkpointSigned = (c: CheckpointRecord, publicKey: AuditKey['publicKey'] | string) =>
  verifyBytes(publicKey, checkpointPayload(c), c.signature);

/**
 * Checkpoints every chain whose head moved past its last checkpoint (or only `only`, which the
 * auditor's export does when its last record has none yet). How many it made.
 */
export async function checkpointChains(db: Tx, key: AuditKey, now = new Date(), only?: Chain): Promise<number> {
  const grown = await db.$queryRaw<{ owner_id: string; sandbox: boolean; seq: bigint; hash: string }[]>`
    SELECT h.owner_id::text, h.sandbox, h.seq, h.hash FROM chain_heads h
    WHERE h.seq > coalesce((SELECT max(c.seq) FROM checkpoints c WHERE c.owner_id = h.owner_id AND c.sandbox = h.sandbox), 0)
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
