// What an auditor's export of one chain (workspace + environment) and period holds, decided before
// a byte is sent: every member's name, size and SHA-256 (the manifest, signed), so the ZIP's size is
// known up front. Small members are built here; the event log's records and checkpoints are read
// twice (hashed now, streamed later: both are append-only, so the second read is the first's bytes);
// file versions stream from the blob store. docs/api.md, Export.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Tx } from '../../db/client';
import type { Chain } from '../../events/chain';
import { chainName } from '../../events/chain';
import { canonicalJson, type Json } from '../../events/canonical-json';
import { checkpointChains, presentCheckpoint } from '../../events/checkpoints';
import { presentEvent } from '../../events/record';
import { type AuditKey, signBytes } from '../../events/signing-key';
import type { ExportQuery } from '../../schemas/export';
import type { BlobStore } from '../../storage/blob-store';
import { BOM, csvRecord } from './csv';
import { DTD_NAME, GDPDU_DTD, indexXml } from './gdpdu';
import { ENTRIES_TABLE, type ExportEntry, type ExportVersion, FILES_TABLE, type Table } from './tables';

export const EXPORT_FORMAT = 'silo-export/1';

export interface ExportMember {
  name: string;
  size: number;
  sha256: string;
  mtime: Date;
  /** the bytes of a small member */
  bytes?: Buffer;
  /** opens a large member's bytes (called when the ZIP reaches it) */
  open?: () => Promise<Readable | AsyncIterable<Buffer>>;
}

export interface ExportPlan {
  chain: string;
  period: ExportQuery;
  createdAt: Date;
  members: ExportMember[];
  versions: number;
  /** the versions' bytes in all */
  bytes: number;
  /** the seq range of events.jsonl: the record before the period's first, to the first signed checkpoint at or after its last */
  events: { first: number; last: number };
}

export interface PlanOptions {
  db: Tx;
  store: BlobStore;
  chain: Chain;
  period: ExportQuery;
  key: AuditKey;
  /** where the data comes from (the instance's address), for index.xml */
  location: string;
  now?: Date;
}

const PAGE = 1_000;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const small = (name: string, bytes: Buffer, mtime: Date): ExportMember => ({ name, bytes, size: bytes.length, sha256: sha(bytes), mtime });

/** A member made of text read in pages: read once to hash and count it, again when it is sent. */
async function paged(name: string, pages: () => AsyncIterable<Buffer>, mtime: Date): Promise<ExportMember> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const b of pages()) {
    hash.update(b);
    size += b.length;
  }
  return { name, size, sha256: hash.digest('hex'), mtime, open: async () => pages() };
}

/** The day's first instant (UTC), and the instant after `to`'s last. */
export const periodBounds = (p: ExportQuery) => ({
  start: new Date(`${p.from}T00:00:00.000Z`),
  end: new Date(Date.parse(`${p.to}T00:00:00.000Z`) + 86_400_000),
});

/** A file name as a ZIP member's last segment: no path separators, nothing Windows cannot create. */
export const memberFileName = (name: string) => name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_');

export async function planExport(o: PlanOptions): Promise<ExportPlan> {
  const createdAt = o.now ?? new Date();
  const { start, end } = periodBounds(o.period);
  const versions = await versionsStored(o.db, o.chain, start, end);
  const entries = await entriesOf(
    o.db,
    versions.map((v) => v.entryId),
  );
  const events = await eventRange(o.db, o.chain, start, end, o.key, createdAt);
  const owner = await o.db.owner.findUniqueOrThrow({ where: { id: o.chain.ownerId }, select: { name: true } });

  const table = <R>(t: Table<R>, rows: R[]) =>
    Buffer.from(BOM + csvRecord(t.columns.map((c) => c.name)) + rows.map((r) => csvRecord(t.columns.map((c) => c.value(r)))).join(''));
  const index = indexXml({
    supplier: owner.name,
    location: o.location,
    comment: `Silo auditor's export of ${chainName(o.chain)}: entries and file versions stored ${o.period.from} to ${o.period.to} (UTC), made ${createdAt.toISOString()}`,
    period: o.period,
    tables: [ENTRIES_TABLE, FILES_TABLE],
  });
  const members: ExportMember[] = [
    small('index.xml', Buffer.from(index), createdAt),
    small(DTD_NAME, Buffer.from(GDPDU_DTD), createdAt),
    small('entries.csv', table(ENTRIES_TABLE, entries), createdAt),
    small('files.csv', table(FILES_TABLE, versions), createdAt),
    await paged('events.jsonl', () => eventLines(o.db, o.chain, events), createdAt),
    await paged('checkpoints.jsonl', checkpointLines(o.db, o.chain, events), createdAt),
    ...versions.map(
      (v): ExportMember => ({
        name: v.path,
        size: v.size,
        sha256: v.sha256,
        mtime: v.storedAt,
        // The one place the export reads bytes.
        open: () => o.store.read(v.sha256, undefined, v.size),
      }),
    ),
  ];
  const manifest = Buffer.from(
    `${JSON.stringify(
      {
        format: EXPORT_FORMAT,
        chain: chainName(o.chain),
        period: { from: o.period.from, to: o.period.to },
        created_at: createdAt.toISOString(),
        events: { first_seq: events.first, last_seq: events.last },
        key_id: o.key.keyId,
        public_key: o.key.publicPem,
        files: Object.fromEntries(members.map((m) => [m.name, { sha256: m.sha256, size: m.size }])),
      },
      null,
      1,
    )}\n`,
  );
  const signature = Buffer.from(signBytes(o.key, manifest));
  return {
    chain: chainName(o.chain),
    period: o.period,
    createdAt,
    members: [small('manifest.json', manifest, createdAt), small('manifest.sig', signature, createdAt), ...members],
    versions: versions.length,
    bytes: versions.reduce((n, v) => n + v.size, 0),
    events,
  };
}

interface VersionRow {
  id: string;
  entry_id: string;
  entry_key: string | null;
  folder: string;
  category: string;
  key: string | null;
  version: number;
  name: string;
  mime: string;
  size: bigint;
  hash: string;
  stored_at: Date;
  created_by: ExportVersion['createdBy'];
}

/** Every version of the chain stored in [start, end), oldest first. */
async function versionsStored(db: Tx, chain: Chain, start: Date, end: Date): Promise<ExportVersion[]> {
  const rows = await db.$queryRaw<VersionRow[]>`
    SELECT f.id::text, f.entry_id::text, e.key AS entry_key, e.folder, f.category, f.key, f.version, f.name, f.mime, f.size,
           f.hash, coalesce(f.stored_at, f.created_at) AS stored_at, f.created_by
    FROM files f JOIN entries e ON e.id = f.entry_id
    WHERE e.owner_id = ${chain.ownerId}::uuid AND e.sandbox = ${chain.sandbox} AND f.stored AND f.version IS NOT NULL
      AND coalesce(f.stored_at, f.created_at) >= ${start} AND coalesce(f.stored_at, f.created_at) < ${end}
    ORDER BY 12, f.id`;
  return rows.map((r) => ({
    fileId: r.id,
    entryId: r.entry_id,
    entryKey: r.entry_key,
    folder: r.folder,
    category: r.category,
    fileKey: r.key,
    version: r.version,
    name: r.name,
    mime: r.mime,
    size: Number(r.size),
    sha256: r.hash,
    storedAt: r.stored_at,
    createdBy: r.created_by,
    path: `files/${r.entry_id}/${r.id}/v${r.version}-${memberFileName(r.name)}`,
  }));
}

async function entriesOf(db: Tx, ids: string[]): Promise<ExportEntry[]> {
  const unique = [...new Set(ids)];
  const out: ExportEntry[] = [];
  for (let i = 0; i < unique.length; i += PAGE) {
    const rows = await db.$queryRaw<{ id: string; key: string | null; folder: string; name: string; created_at: Date; meta: string }[]>`
      SELECT id::text, key, folder, name, created_at, meta::text AS meta FROM entries
      WHERE id = ANY(${unique.slice(i, i + PAGE)}::uuid[]) ORDER BY created_at, id`;
    out.push(...rows.map((r) => ({ id: r.id, key: r.key, folder: r.folder, name: r.name, createdAt: r.created_at, meta: r.meta })));
  }
  return out.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
}

/**
 * The records events.jsonl holds: from the one before the period's first (so the chain links into
 * what came before) to the first signed checkpoint at or after the period's last. A period whose
 * last record has no checkpoint yet gets one now, signed over the chain's head. {0, 0}: no records.
 */
async function eventRange(db: Tx, chain: Chain, start: Date, end: Date, key: AuditKey, now: Date) {
  const [r] = await db.$queryRaw<{ first: bigint | null; last: bigint | null }[]>`
    SELECT (SELECT min(seq) FROM events WHERE owner_id = ${chain.ownerId}::uuid AND sandbox = ${chain.sandbox} AND at >= ${start} AND at < ${end}) AS first,
           (SELECT max(seq) FROM events WHERE owner_id = ${chain.ownerId}::uuid AND sandbox = ${chain.sandbox} AND at < ${end}) AS last`;
  const last = Number(r.last ?? 0);
  if (!last) return { first: 0, last: 0 };
  const first = Math.max(1, Number(r.first ?? last + 1) - 1);
  const covering = () =>
    db.checkpoint.findFirst({
      where: { ownerId: chain.ownerId, sandbox: chain.sandbox, seq: { gte: BigInt(last) } },
      orderBy: { seq: 'asc' },
      select: { seq: true },
    });
  let mark = await covering();
  if (!mark) {
    await checkpointChains(db, key, now, chain);
    mark = await covering();
  }
  if (!mark) throw new Error(`no checkpoint covers record ${last} of ${chainName(chain)}`);
  return { first, last: Number(mark.seq) };
}

async function* eventLines(db: Tx, chain: Chain, range: { first: number; last: number }): AsyncIterable<Buffer> {
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
function checkpointLines(db: Tx, chain: Chain, range: { first: number; last: number }): () => AsyncIterable<Buffer> {
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
