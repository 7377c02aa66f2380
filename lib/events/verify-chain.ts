// Recomputes a chain of the event log from its first record (docs/api.md, Events): every seq one
// more than the last, every prev_hash the last record's hash, every hash the SHA-256 of its
// record's canonical JSON, and the last record the chain's head. Reads keyset pages, so a million
// records take bounded memory. Each signed checkpoint of the chain must carry a good signature of
// the audit key and name a record that is there with that hash, and its RFC 3161 token, if it has
// one, must check out against its payload (timestamp.ts; pinned to AUDIT_TSA_CERT when given,
// else only to the certificate inside the token). Every record after the chain's signed_from must
// carry a good sig of the audit key (record-signature.ts): one appended through SQL has none.
// Witnesses (witness.ts: what a client kept of a record) must find their record there with their
// hash. Used by GET /silo/v1/events/verify and `npm run verify-events`.
import type { Tx } from '../db/client';
import type { Chain } from './chain';
import { type CheckpointRecord, checkpointPayload, checkpointSigned, presentCheckpoint } from './checkpoints';
import { GENESIS_HASH, presentEvent, recordHash } from './record';
import { recordSigOk } from './record-signature';
import type { AuditKey } from './signing-key';
import { checkTimestamp, TimestampError } from './timestamp';

export interface ChainVerdict {
  ok: boolean;
  checked: number;
  head: { seq: number; hash: string };
  /** signed checkpoints checked */
  checkpoints: number;
  /** RFC 3161 tokens of those checkpoints checked */
  timestamps: number;
  /** the newest checkpoint that checked out, with its token: evidence a client may keep */
  last_checkpoint: CheckpointRecord | null;
  /** records before the chain's signed_from, written before record signatures (they carry none) */
  unsigned_before: number;
  first_bad_seq?: number;
  reason?: string;
}

/** A record a client kept: its seq and hash, oldest first. */
export interface Witness {
  seq: number;
  hash: string;
}

const PAGE = 1_000;

export async function verifyChain(
  db: Tx,
  chain: Chain,
  key: Pick<AuditKey, 'publicKey' | 'keyId'>,
  opts: { tsaCert?: string; witnesses?: Witness[] } = {},
): Promise<ChainVerdict> {
  const where = { ownerId_sandbox: { ownerId: chain.ownerId, sandbox: chain.sandbox } };
  const signedFrom = Number((await db.chainHead.findUnique({ where, select: { signedFrom: true } }))?.signedFrom ?? 0);
  const witnesses = [...(opts.witnesses ?? [])].sort((a, b) => a.seq - b.seq);
  let seq = 0;
  let hash = GENESIS_HASH;
  let checked = 0;
  const marks = checkpointsOf(db, chain);
  let mark = await marks.next();
  let checkpoints = 0;
  let timestamps = 0;
  let last: CheckpointRecord | null = null;
  const bad = (at: number, reason: string): ChainVerdict => ({
    ok: false,
    checked,
    head: { seq, hash },
    checkpoints,
    timestamps,
    last_checkpoint: last,
    unsigned_before: Math.min(signedFrom, checked),
    first_bad_seq: at,
    reason,
  });
  for (;;) {
    const rows = await db.event.findMany({
      where: { ownerId: chain.ownerId, sandbox: chain.sandbox, seq: { gt: BigInt(seq) } },
      orderBy: { seq: 'asc' },
      take: PAGE,
    });
    for (const row of rows) {
      const r = presentEvent(row);
      if (r.seq !== seq + 1) return bad(seq + 1, `record ${seq + 1} is missing (the next record is ${r.seq})`);
      if (r.prev_hash !== hash) return bad(r.seq, `record ${r.seq}'s prev_hash is not record ${seq}'s hash`);
      if (recordHash(r) !== r.hash) return bad(r.seq, `record ${r.seq} is not what its hash says (edited after it was written)`);
      if (r.seq > signedFrom && !recordSigOk(r, key.publicKey))
        return bad(r.seq, `record ${r.seq} was not written by this instance's server: ${r.sig ? 'bad' : 'no'} signature`);
      while (witnesses.length && witnesses[0].seq <= r.seq) {
        const w = witnesses.shift() as Witness;
        if (w.seq === r.seq && w.hash !== r.hash)
          return bad(
            r.seq,
            `record ${r.seq} is not the record a witness kept (its hash differs: the chain was cut and grown again, or changed)`,
          );
      }
      seq = r.seq;
      hash = r.hash;
      checked++;
      while (!mark.done && mark.value.seq <= seq) {
        const cp = mark.value;
        if (cp.key_id !== key.keyId)
          return bad(cp.seq, `the checkpoint at record ${cp.seq} is signed by key ${cp.key_id}, not this instance's ${key.keyId}`);
        if (!checkpointSigned(cp, key.publicKey)) return bad(cp.seq, `the checkpoint at record ${cp.seq} has a bad signature`);
        if (cp.seq === seq && cp.hash !== hash) return bad(cp.seq, `record ${cp.seq} is not the record its signed checkpoint names`);
        if (cp.timestamp) {
          const why = await checkTimestamp(cp.timestamp.token, checkpointPayload(cp), { pinned: opts.tsaCert }).then(
            () => undefined,
            (err) => (err instanceof TimestampError ? err.message : String(err)),
          );
          if (why) return bad(cp.seq, `the checkpoint at record ${cp.seq} has a bad time-stamp: ${why}`);
          timestamps++;
        }
        checkpoints++;
        last = cp;
        mark = await marks.next();
      }
    }
    if (rows.length < PAGE) break;
  }
  const head = await db.chainHead.findUnique({ where });
  const headSeq = head ? Number(head.seq) : 0;
  if (witnesses.length)
    return bad(
      witnesses[0].seq,
      `record ${witnesses[0].seq} is missing: a witness kept it, but the records end at ${seq} (the tail was cut)`,
    );
  if (!mark.done) return bad(seq + 1, `a signed checkpoint names record ${mark.value.seq}, but the records end at ${seq}`);
  if (headSeq !== seq) return bad(seq + 1, `the chain's head is record ${headSeq}, but the records end at ${seq}`);
  if (head && head.hash !== hash) return bad(seq, `record ${seq}'s hash is not the chain head's`);
  return {
    ok: true,
    checked,
    head: { seq, hash },
    checkpoints,
    timestamps,
    last_checkpoint: last,
    unsigned_before: Math.min(signedFrom, checked),
  };
}

/** The chain's checkpoints by seq, a page at a time. */
async function* checkpointsOf(db: Tx, chain: Chain) {
  let after = 0n;
  for (;;) {
    const rows = await db.checkpoint.findMany({
      where: { ownerId: chain.ownerId, sandbox: chain.sandbox, seq: { gt: after } },
      orderBy: { seq: 'asc' },
      take: PAGE,
      include: { timestamp: true },
    });
    for (const row of rows) yield presentCheckpoint(row);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].seq;
  }
}
