// The event log's part of an auditor's export (docs/api.md, Export): the records made in the period
// and the signed checkpoints among them. An auditor's key reads only its period's records
// (docs/api.md, Auditor keys), so none from before or after it is in the export; the records are a
// run of the chain from the period's first to its last, and that last one always has a signed
// checkpoint of its own (one is signed when the export is planned if the checkpoint job's fall
// later), so verify-export checks the run from its first record's prev_hash to a checkpoint.
import type { Tx } from '../../db/client';
import { canonicalJson, type Json } from '../../events/canonical-json';
import { type Chain, chainName } from '../../events/chain';
import { checkpointPayload, presentCheckpoint } from '../../events/checkpoints';
import { presentEvent } from '../../events/record';
import { type AuditKey, signBytes } from '../../events/signing-key';
import { PAGE } from './period-pages';

/** seqs of events.jsonl's first and last record; {0, 0}: the period has none. */
export interface EventRun {
  first: number;
  last: number;
}

/**
 * The seqs of the records made in [start, end): from the first whose `at` is in it to the last.
 * A record's `at` is read before it waits for its chain's head, so two writers' records may cross
 * by the milliseconds one waited; a record appended inside the run is in it either way (a gap would
 * break the chain). The run's last record gets a checkpoint now if it has none.
 */
export async function eventRun(db: Tx, chain: Chain, start: Date, end: Date, key: AuditKey, now: Date): Promise<EventRun> {
  const [r] = await db.$queryRaw<{ first: bigint | null; last: bigint | null }[]>`
    SELECT min(seq) AS first, max(seq) AS last FROM events
    WHERE owner_id = ${chain.ownerId}::uuid AND sandbox = ${chain.sandbox} AND at >= ${start} AND at < ${end}`;
  if (r.first === null || r.last === null) return { first: 0, last: 0 };
  await checkpointAt(db, chain, r.last, key, now);
  return { first: Number(r.first), last: Number(r.last) };
}

/**
 * A signed checkpoint of record `seq`, unless it has one: {chain, seq, hash, at} as the checkpoint
 * job signs the head's (checkpoints.ts), kept with the others, so the next export of the period
 * finds it and `verify` checks it from then on.
 */
async function checkpointAt(db: Tx, chain: Chain, seq: bigint, key: AuditKey, now: Date) {
  const where = { ownerId: chain.ownerId, sandbox: chain.sandbox, seq };
  if (await db.checkpoint.findUnique({ where: { ownerId_sandbox_seq: where }, select: { seq: true } })) return;
  const { hash } = await db.event.findUniqueOrThrow({ where: { ownerId_sandbox_seq: where }, select: { hash: true } });
  const at = new Date(Math.floor(now.getTime()));
  const signature = signBytes(key, checkpointPayload({ chain: chainName(chain), seq: Number(seq), hash, at: at.toISOString() }));
  // skipDuplicates: another export, or the checkpoint job at the head, made it meanwhile
  await db.checkpoint.createMany({ data: [{ ...where, hash, at, keyId: key.keyId, signature }], skipDuplicates: true });
}

export async function* eventLines(db: Tx, chain: Chain, range: EventRun): AsyncIterable<Buffer> {
  for (let after = range.first - 1; range.first && after < range.last; ) {
    const rows = await db.event.findMany({
      where: { ownerId: chain.ownerId, sandbox: chain.sandbox, seq: { gt: BigInt(after), lte: BigInt(range.last) } },
      orderBy: { seq: 'asc' },
      take: PAGE,
    });
    if (!rows.length) throw new Error(`records ${after + 1} to ${range.last} of ${chainName(chain)} are gone`);
    yield Buffer.from(rows.map((row) => `${canonicalJson(presentEvent(row) as unknown as Json)}\n`).join(''));
    after = Number(rows[rows.length - 1].seq);
  }
}

/**
 * The checkpoints' lines, time-stamp tokens included. The member is read twice (hashed when
 * planned, then sent), and a token may arrive between the two (checkpoints.ts fetches them after
 * the checkpoint): the later readings show a token only where the first one saw it, so the bytes
 * sent are the bytes the manifest names. Tokens are append-only: one seen stays.
 */
export function checkpointLines(db: Tx, chain: Chain, range: EventRun): () => AsyncIterable<Buffer> {
  const seen = new Set<number>();
  let readings = 0;
  return async function* () {
    const first = readings++ === 0;
    for (let after = range.first - 1; range.first && after < range.last; ) {
      const rows = await db.checkpoint.findMany({
        where: { ownerId: chain.ownerId, sandbox: chain.sandbox, seq: { gt: BigInt(after), lte: BigInt(range.last) } },
        include: { timestamp: true },
        orderBy: { seq: 'asc' },
        take: PAGE,
      });
      if (!rows.length) return;
      const lines = rows.map((row) => {
        const seq = Number(row.seq);
        if (first && row.timestamp) seen.add(seq);
        const shown = seen.has(seq) ? row : { ...row, timestamp: null };
        return `${canonicalJson(presentCheckpoint(shown) as unknown as Json)}\n`;
      });
      yield Buffer.from(lines.join(''));
      after = Number(rows[rows.length - 1].seq);
    }
  };
}
