// fsck's reading of the event log: versions it recorded as made (file.stored, file.restored) whose
// row is gone, with no later record of their delete (a file.deleted naming them, or their entry's
// entry.deleted). Every delete the server makes writes that record in its own transaction, so what
// this names was removed past the server: by SQL behind the database's guards (a superuser, or the
// owner of the tables, who can switch triggers off), or by a restore of an older backup. A
// placeholder's file.created is not read: it made no version. A deleted workspace takes its chains
// with it (GET /admin/v1/deleted-chains keeps their final heads): nothing of it is named.
// Read in keyset pages, chain by chain and type by type, each an index range of
// events(owner_id, sandbox, type, seq); a delete's record is looked for only for a row that is gone,
// in events(owner_id, sandbox, entry_id, seq).
import type { Db } from '../db/client';

export interface VanishedVersion {
  /** the record that made it: its chain and seq */
  ownerId: string;
  sandbox: boolean;
  seq: number;
  type: string;
  at: Date;
  fileId: string;
  entryId: string;
  version: number | null;
  name: string;
}

const MADE = ['file.stored', 'file.restored'] as const;
const PAGE = 500;

export async function vanishedVersions(db: Db): Promise<VanishedVersion[]> {
  const out: VanishedVersion[] = [];
  for (let after = { ownerId: '00000000-0000-0000-0000-000000000000', sandbox: false }, first = true; ; first = false) {
    const chains = await db.$queryRaw<{ ownerId: string; sandbox: boolean }[]>`
      SELECT owner_id::text AS "ownerId", sandbox FROM chain_heads
      WHERE ${first} OR (owner_id, sandbox) > (${after.ownerId}::uuid, ${after.sandbox})
      ORDER BY owner_id, sandbox LIMIT ${PAGE}`;
    if (!chains.length) return out;
    after = chains[chains.length - 1];
    for (const chain of chains) for (const type of MADE) out.push(...(await vanishedOfType(db, chain, type)));
  }
}

async function vanishedOfType(db: Db, chain: { ownerId: string; sandbox: boolean }, type: string): Promise<VanishedVersion[]> {
  const out: VanishedVersion[] = [];
  for (let after = 0n; ; ) {
    const rows = await db.$queryRaw<
      { seq: bigint; at: Date; fileId: string; entryId: string; version: number | null; name: string | null; vanished: boolean }[]
    >`
      SELECT s.seq, s.at, s.file_id::text AS "fileId", s.entry_id::text AS "entryId", s.version, s.data->>'name' AS name,
        NOT EXISTS (SELECT 1 FROM files f WHERE f.id = s.file_id)
        AND NOT EXISTS (
          SELECT 1 FROM events d
          WHERE d.owner_id = s.owner_id AND d.sandbox = s.sandbox AND d.entry_id = s.entry_id AND d.seq > s.seq
            AND (d.type = 'entry.deleted'
              OR (d.type = 'file.deleted' AND d.data->'versions' @> jsonb_build_array(jsonb_build_object('id', s.file_id::text))))
        ) AS vanished
      FROM events s
      WHERE s.owner_id = ${chain.ownerId}::uuid AND s.sandbox = ${chain.sandbox} AND s.type = ${type} AND s.seq > ${after}
        AND s.file_id IS NOT NULL
      ORDER BY s.seq LIMIT ${PAGE}`;
    if (!rows.length) return out;
    after = rows[rows.length - 1].seq;
    for (const r of rows)
      if (r.vanished)
        out.push({
          ...chain,
          type,
          seq: Number(r.seq),
          at: r.at,
          fileId: r.fileId,
          entryId: r.entryId,
          version: r.version,
          name: r.name ?? '',
        });
  }
}
