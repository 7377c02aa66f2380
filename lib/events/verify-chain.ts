// Recomputes a chain of the event log from its first record (docs/api.md, Events): every seq one
// more than the last, every prev_hash the last record's hash, every hash the SHA-256 of its
// record's canonical JSON, and the last record the chain's head. Reads keyset pages, so a million
// records take bounded memory. Used by GET /silo/v1/events/verify and `npm run verify-events`.
import type { Tx } from '../db/client';
import type { Chain } from './chain';
import { GENESIS_HASH, presentEvent, recordHash } from './record';

export interface ChainVerdict {
  ok: boolean;
  checked: number;
  head: { seq: number; hash: string };
  first_bad_seq?: number;
  reason?: string;
}

const PAGE = 1_000;

export async function verifyChain(db: Tx, chain: Chain): Promise<ChainVerdict> {
  let seq = 0;
  let hash = GENESIS_HASH;
  let checked = 0;
  const bad = (at: number, reason: string): ChainVerdict => ({ ok: false, checked, head: { seq, hash }, first_bad_seq: at, reason });
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
      seq = r.seq;
      hash = r.hash;
      checked++;
    }
    if (rows.length < PAGE) break;
  }
  const head = await db.chainHead.findUnique({ where: { ownerId_sandbox: { ownerId: chain.ownerId, sandbox: chain.sandbox } } });
  const headSeq = head ? Number(head.seq) : 0;
  if (headSeq !== seq) return bad(seq + 1, `the chain's head is record ${headSeq}, but the records end at ${seq}`);
  if (head && head.hash !== hash) return bad(seq, `record ${seq}'s hash is not the chain head's`);
  return { ok: true, checked, head: { seq, hash } };
}
