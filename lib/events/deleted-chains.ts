// GET /admin/v1/deleted-chains (docs/api.md, Events): the chains of deleted workspaces, newest
// deletion first, keyset pages by (deleted_at, owner id). Each chain's final head and last record
// are what the owners' delete trigger kept (silo_keep_final_heads, prisma/sql/events.sql);
// `verified` recomputes that record's hash here, as verify-chain.ts does for a live chain.
import type { Tx } from '../db/client';
import { decodeCursor, page } from '../db/cursor';
import { Prisma } from '../db/generated/client';
import type { Json } from './canonical-json';
import { type EventRecord, recordHash } from './record';

export interface DeletedChainsQuery {
  limit: number;
  cursor?: string;
  owner_id?: string;
}

/** A kept events row (to_jsonb of its columns) as GET /silo/v1/events showed the record. */
export function keptRecord(row: unknown): EventRecord | null {
  if (!row || typeof row !== 'object') return null;
  const r = row as Record<string, Json>;
  return {
    id: r.id as string,
    seq: Number(r.seq),
    at: new Date(r.at as string).toISOString(),
    type: r.type as string,
    sandbox: r.sandbox as boolean,
    actor: r.actor,
    entry_id: (r.entry_id ?? null) as string | null,
    file_id: (r.file_id ?? null) as string | null,
    version: (r.version ?? null) as number | null,
    data: r.data,
    request_id: (r.request_id ?? null) as string | null,
    prev_hash: r.prev_hash as string,
    hash: r.hash as string,
    ...(typeof r.sig === 'string' ? { sig: r.sig } : {}),
  };
}

/**
 * Whether a deleted chain's kept final record is the record its final head names (its hash
 * recomputed): null when none was kept (a chain deleted before migration deleted_chain_final_record).
 */
export function finalRecordHolds(c: { seq: bigint; hash: string; sandbox: boolean; finalRecord: unknown }): boolean | null {
  const record = keptRecord(c.finalRecord);
  if (!record) return null;
  return record.hash === c.hash && record.seq === Number(c.seq) && record.sandbox === c.sandbox && recordHash(record) === c.hash;
}

export async function listDeletedChains(db: Tx, q: DeletedChainsQuery) {
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const workspaces = await db.$queryRaw<{ id: string; createdAt: Date }[]>`
    SELECT owner_id::text AS id, max(deleted_at) AS "createdAt" FROM deleted_chains
    WHERE ${q.owner_id ? Prisma.sql`owner_id = ${q.owner_id}::uuid` : Prisma.sql`true`}
    GROUP BY owner_id
    HAVING ${after ? Prisma.sql`(max(deleted_at), owner_id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : Prisma.sql`true`}
    ORDER BY 2 DESC, 1 DESC LIMIT ${q.limit + 1}`;
  const p = page(workspaces, q.limit, q.cursor);
  const chains = await db.deletedChain.findMany({
    where: { ownerId: { in: p.list.map((w) => w.id) } },
    orderBy: { sandbox: 'asc' },
  });
  return {
    ...p,
    list: p.list.map((w) => ({
      owner_id: w.id,
      deleted_at: w.createdAt.toISOString(),
      chains: chains
        .filter((c) => c.ownerId === w.id)
        .map((c) => ({
          chain: `${c.ownerId}/${c.sandbox ? 'sandbox' : 'live'}`,
          sandbox: c.sandbox,
          seq: Number(c.seq),
          hash: c.hash,
          final_record: keptRecord(c.finalRecord),
          verified: finalRecordHolds(c),
        })),
    })),
  };
}
