// A replacement's `previous` without reading its whole history again (issue 11). Every version of
// a file lists the versions before it, so the answer to the 2,000th replacement of one file holds
// 1,999 of them. This process keeps, per slot, that list as JSON text, dated by the slot's seq
// (bumped by every new stored version) and rev (bumped by a trigger on every update or delete of a
// stored version: prisma/sql/versions.sql). The statement that makes a version current
// returns both (replace-file.ts, insertCurrent); while rev has not moved, the versions before it
// are the cached ones below it, and the cache grows by the new version without a query. A slot's
// history is kept from its first replacement on (a first version has none before it). Anything
// else (another instance's versions, a deleted or edited version) reads what changed, in one
// statement with the slot's seq and rev. An answer is the history as it was when its version was
// made, or as it is when read: never a mix of the two.
import { LRUCache } from 'lru-cache';
import type { Tx } from '../../db/client';
import { queryDirect } from '../../db/direct-query';
import { Prisma } from '../../db/generated/client';
import { ownedConcat } from '../../owned-buffer';
import type { PreviousVersion } from './list-previous-versions';
import { presentPrevious } from './present-file';

/** A version an autocommit statement made current: its slot's seq (its own version) and rev then. */
export interface MadeVersion {
  slotId: string;
  rev: string;
  version: PreviousVersion & { version: number };
}

/** A file's `previous` as JSON text: the pieces of `[…]` without its brackets, to be written in order. */
export type PreviousText = Buffer[];

export interface SlotHistories {
  /** The `previous` of a version just made current, newest first. */
  previousOf(db: Tx, made: MadeVersion): Promise<PreviousText>;
}

/**
 * Part of a slot's history: versions newest first, each as `,{…}` (the first piece written drops
 * its comma), with where each starts in `text` and its number.
 */
interface Block {
  text: Buffer;
  starts: number[];
  versions: number[];
}

/** A slot's stored versions up to `seq` when its rev was `rev`, newest first. */
interface History {
  seq: number;
  rev: bigint;
  blocks: Block[];
  bytes: number;
}

/** A block grows by prepending (a copy) up to this size; then a new one starts. */
const BLOCK_BYTES = 32 * 1024;

export function createSlotHistories(maxBytes = 32 * 1024 * 1024): SlotHistories {
  // A history kept again (grown, or read anew) becomes the most recently used.
  const histories = new LRUCache<string, History>({ maxSize: maxBytes, sizeCalculation: (h) => Math.max(1, h.bytes) });

  function keep(slotId: string, h: History) {
    const old = histories.peek(slotId);
    // Two answers of one slot may finish out of order: keep whichever history is later.
    if (old && (old.rev > h.rev || (old.rev === h.rev && old.seq > h.seq))) return;
    histories.delete(slotId);
    if (h.bytes > maxBytes / 4) return; // one history alone may not crowd out the rest
    histories.set(slotId, h);
  }

  return {
    async previousOf(db, made) {
      const { slotId, version } = made;
      const seq = version.version;
      // A slot's first version (most files: an archive replaces few) has none before it, and its
      // history is not kept: the first replacement reads it (one query), and only then is it kept.
      // Kept for every new file, the histories of files never replaced filled the cache (measured:
      // about 8 KiB held per new file under a stream of new files).
      if (seq === 1) return [];
      const rev = BigInt(made.rev);
      const h = histories.peek(slotId);
      if (h && h.rev === rev && h.seq >= seq - 1) {
        // Nothing updated or deleted since h was read: the versions before this one are h's below it.
        if (h.seq === seq - 1) keep(slotId, prepend(h, seq, rev, version));
        return below(h.blocks, seq);
      }
      // Read what h lacks (every version newer than it), or, if rev moved, everything.
      const base = h && h.rev === rev ? h : undefined;
      let read = await readVersions(db, slotId, base?.seq ?? 0);
      if (base && read && read.rev !== base.rev) read = await readVersions(db, slotId, 0);
      if (!read) return []; // the slot is gone: the file and its history were deleted since
      const tail = base && read.rev === base.rev ? base.blocks : [];
      const now = withNewer(tail, read.rows);
      keep(slotId, { seq: read.seq, rev: read.rev, blocks: now, bytes: sizeOf(now) });
      return below(now, seq);
    },
  };
}

/** h with one newer version (seq) in front. */
function prepend(h: History, seq: number, rev: bigint, v: PreviousVersion): History {
  const blocks = withNewer(h.blocks, [v]);
  return { seq, rev, blocks, bytes: sizeOf(blocks) };
}

/** blocks with newer versions (newest first) in front: into the first block while it is small. */
function withNewer(blocks: Block[], newer: PreviousVersion[]): Block[] {
  if (!newer.length) return blocks;
  const items = newer.map((v) => Buffer.from(`,${JSON.stringify(presentPrevious(v))}`));
  const front = blocks[0] && blocks[0].text.length < BLOCK_BYTES ? blocks[0] : undefined;
  const rest = front ? blocks.slice(1) : blocks;
  const made: Block = { text: Buffer.alloc(0), starts: [], versions: [] };
  let at = 0;
  for (const [i, item] of items.entries()) {
    made.starts.push(at);
    made.versions.push(Number(newer[i].version));
    at += item.length;
  }
  if (front) {
    made.starts.push(...front.starts.map((s) => s + at));
    made.versions.push(...front.versions);
  }
  // Kept for long: in memory of its own, never a slice of Node's buffer pool (owned-buffer.ts).
  made.text = ownedConcat(front ? [...items, front.text] : items);
  return [made, ...rest];
}

/** The pieces of the versions numbered below seq, the first without its leading comma. */
function below(blocks: Block[], seq: number): PreviousText {
  const pieces: Buffer[] = [];
  for (const b of blocks) {
    if (pieces.length) {
      pieces.push(b.text);
      continue;
    }
    const i = b.versions.findIndex((v) => v < seq);
    if (i >= 0) pieces.push(b.text.subarray(b.starts[i] + 1));
  }
  return pieces;
}

/**
 * What a history holds, about: its text, its numbers, and the objects around them (a history, each
 * block, its buffer and arrays, the cache's entry), which for a file's one first version outweigh
 * its text.
 */
const sizeOf = (blocks: Block[]) => blocks.reduce((n, b) => n + b.text.length + b.versions.length * 16 + OBJECT_BYTES, OBJECT_BYTES);
const OBJECT_BYTES = 256;

interface Read {
  seq: number;
  rev: bigint;
  rows: PreviousVersion[];
}

/** The slot's seq and rev with its stored versions numbered above `above`, newest first; none if the slot is gone. */
async function readVersions(db: Tx, slotId: string, above: number): Promise<Read | undefined> {
  // Sent past Prisma (direct-query.ts): a replacement reads its slot's newest versions each time.
  const rows = await queryDirect<Omit<PreviousVersion, 'id' | 'size'> & { id: string | null; size: string; seq: number; rev: string }>(
    db,
    Prisma.sql`
    SELECT s.seq, s.rev::text AS rev, f.id::text, f.name, f.hash, f.size::text AS size, f.created_at AS "createdAt", f.version, f."desc",
      f.created_by AS "createdBy", f.restored_from AS "restoredFrom", f.retain_until AS "retainUntil", f.retention_mode AS "retentionMode",
      f.legal_hold AS "legalHold"
    FROM file_slots s LEFT JOIN files f ON f.slot_id = s.id AND f.stored AND f.version > ${above}
    WHERE s.id = ${slotId}::uuid
    ORDER BY f.version DESC`,
  );
  if (!rows.length) return undefined;
  const versions = rows.filter((r): r is typeof r & { id: string } => r.id !== null);
  return {
    seq: rows[0].seq,
    rev: BigInt(rows[0].rev),
    rows: versions.map(({ seq: _s, rev: _r, size, ...v }) => ({ ...v, size: BigInt(size) })),
  };
}

/**
 * One set of histories per database (a test's databases do not share one), and per process: on
 * globalThis, as Next bundles this module once per route (docs/design/server.md, Process-wide state).
 */
const g = globalThis as unknown as { __siloSlotHistories?: WeakMap<object, SlotHistories> };

export function slotHistoriesOf(db: object): SlotHistories {
  g.__siloSlotHistories ??= new WeakMap();
  const perDatabase = g.__siloSlotHistories;
  const known = perDatabase.get(db);
  if (known) return known;
  const made = createSlotHistories();
  perDatabase.set(db, made);
  return made;
}
