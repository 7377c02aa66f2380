// Checks an auditor's export as `npm run verify-export` does (docs/api.md, Export): every byte of
// the ZIP accounted for (zip-structure.ts), every member's SHA-256 and size as manifest.json says,
// manifest.sig the audit key's signature over manifest.json, events.jsonl a chain (each record's
// hash recomputed, each prev_hash the previous hash) ending in a record a signed checkpoint of
// checkpoints.jsonl names, and every version of files.csv present with its sha256. The first
// mismatch is named. Reads members by position, the tables and events.jsonl as streams, and keeps
// nothing per member (verify-lists.ts).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { checkpointPayload, checkpointSigned, type CheckpointRecord } from '../../events/checkpoints';
import { checkTimestamp } from '../../events/timestamp';
import { type EventRecord, GENESIS_HASH, recordHash } from '../../events/record';
import { verifyBytes } from '../../events/signing-key';
import { recordSigOk } from '../../events/record-signature';
import type { KeptWitness } from '../../events/witness-file';
import { EXPORT_FORMAT, periodBounds } from './plan-export';
import { ENTRIES_TABLE, FILES_TABLE } from './tables';
import { checkListed, checkTablesWhole, ListDigest, parseManifest, readRange, tableRows } from './verify-lists';
import { ExportBroken, type ZipMember, walkExportZip } from './zip-structure';

export { ExportBroken };

export interface ExportVerdict {
  members: number;
  versions: number;
  events: number;
  checkpoints: number;
  /** checkpoints whose RFC 3161 time-stamp token checked out (the certificate inside each token trusted) */
  timestamps: number;
  chain: string;
  period: { from: string; to: string };
  key_id: string;
  /** whether the signature was checked against a key the caller gave (else the manifest's own) */
  keyGiven: boolean;
  /** things an auditor should know that are not faults */
  notes: string[];
}

interface Manifest {
  format: string;
  chain: string;
  period: { from: string; to: string };
  events: { first_seq: number; last_seq: number };
  key_id: string;
  public_key: string;
  files: Record<string, { sha256: string; size: number }>;
}

/** Throws ExportBroken naming the first mismatch. `witnesses`: records a client kept (witness-file.ts). */
export async function verifyExport(file: string, opts: { publicKey?: KeyObject; witnesses?: KeptWitness[] } = {}): Promise<ExportVerdict> {
  // One walk of the ZIP checks every byte; the members outside files/ are kept (a handful), the
  // others folded into digests (verify-lists.ts): memory does not grow with the export.
  const byName = new Map<string, ZipMember>();
  const listed = new ListDigest(); // every member manifest.json lists
  const versions = new ListDigest(); // files/…
  let members = 0;
  for await (const m of walkExportZip(file)) {
    members++;
    if (m.name.startsWith('files/')) versions.add(m.name, m.size, m.sha256);
    else if (byName.has(m.name)) throw new ExportBroken(`ZIP member ${members} (${m.name})`, 'the name appears twice');
    else byName.set(m.name, m);
    if (m.name !== 'manifest.json' && m.name !== 'manifest.sig') listed.add(m.name, m.size, m.sha256);
  }
  const text = async (name: string) => {
    const m = byName.get(name);
    if (!m) throw new ExportBroken(name, 'missing from the archive');
    return (await readRange(file, m)).toString('utf8');
  };
  const manifestText = await text('manifest.json');
  const signature = (await text('manifest.sig')).trim();
  let parsed: ReturnType<typeof parseManifest<Manifest>>;
  try {
    parsed = parseManifest<Manifest>(manifestText);
  } catch {
    throw new ExportBroken('manifest.json', 'is not JSON');
  }
  const manifest = parsed.manifest;
  if (manifest?.format !== EXPORT_FORMAT) throw new ExportBroken('manifest.json', `format is not ${EXPORT_FORMAT}`);
  let key: KeyObject;
  try {
    key = opts.publicKey ?? createPublicKey(manifest.public_key);
  } catch {
    throw new ExportBroken('manifest.json', 'public_key is not a public key');
  }
  if (!verifyBytes(key, manifestText, signature))
    throw new ExportBroken('manifest.sig', "is not the audit key's signature over manifest.json");
  if (parsed.left || parsed.files !== listed.digest()) await checkListed(file, JSON.parse(manifestText));

  const notes: string[] = [];
  const versionCount = await checkTables(file, byName, versions.digest(), notes);
  const checkpoints = await checkpointsOf(await text('checkpoints.jsonl'), manifest, key);
  const seen = new Map<number, string>();
  const events = await checkEvents(file, byName.get('events.jsonl') as ZipMember, manifest, checkpoints, {
    publicKey: opts.publicKey ?? manifest.public_key,
    seen: opts.witnesses?.length ? seen : undefined,
    notes,
  });
  checkWitnesses(opts.witnesses ?? [], manifest, seen, notes);
  if (manifest.events.first_seq > 1)
    notes.push(
      `events.jsonl begins with the period's first record, ${manifest.events.first_seq}: its prev_hash is the hash of record ${manifest.events.first_seq - 1}, made before the period and not in the export`,
    );
  if (!opts.publicKey)
    notes.push(
      `signatures checked with the key in manifest.json (key_id ${manifest.key_id}): compare it with the instance's GET /utils/v1/audit-key, or pass --public-key`,
    );
  return {
    members,
    versions: versionCount,
    events,
    checkpoints: checkpoints.size,
    timestamps: [...checkpoints.values()].filter((c) => c.timestamp).length,
    chain: manifest.chain,
    period: manifest.period,
    key_id: manifest.key_id,
    keyGiven: !!opts.publicKey,
    notes,
  };
}

/**
 * entries.csv and files.csv, read as streams: headers, each row's fields, every version's member
 * present with its sha256 and size (files.csv's rows and the ZIP's files/ members are one list in
 * one order: their digests), each row's entry in entries.csv (rows grouped by entry in its order).
 * Where either does not hold, checkTablesWhole decides and names the row.
 */
async function checkTables(file: string, byName: Map<string, ZipMember>, zipVersions: string, notes: string[]): Promise<number> {
  const member = (name: string) => {
    const m = byName.get(name);
    if (!m) throw new ExportBroken(name, 'missing from the archive');
    return m;
  };
  const formulas: Record<string, number> = {};
  const entryColumns = ENTRIES_TABLE.columns.map((c) => c.name);
  const fileColumns = FILES_TABLE.columns.map((c) => c.name);
  const entries = tableRows(file, member(ENTRIES_TABLE.url), entryColumns, formulas)[Symbol.asyncIterator]();
  let entry = await entries.next(); // before files.csv: its header is checked first
  let current: string | undefined; // the entry whose rows files.csv is on
  let grouped = true;
  const rows = new ListDigest();
  for await (const f of tableRows(file, member(FILES_TABLE.url), fileColumns, formulas)) {
    if (!f.path.startsWith('files/'))
      throw new ExportBroken(`files.csv, record ${rows.count + 2} (${f.path})`, 'its bytes are not in the archive');
    rows.add(f.path, f.size, f.sha256);
    if (grouped && current !== f.entry_id) {
      if (current !== undefined) entry = await entries.next();
      grouped = !entry.done && entry.value.entry_id === f.entry_id;
      current = f.entry_id;
    }
  }
  if (current !== undefined && grouped) entry = await entries.next();
  for (; !entry.done; entry = await entries.next()) grouped = false; // an entry without versions; read for its checks
  if (!grouped || rows.digest() !== zipVersions) await checkTablesWhole(file);
  for (const name of [ENTRIES_TABLE.url, FILES_TABLE.url])
    if (formulas[name])
      notes.push(
        `${name}: ${formulas[name]} field(s) begin with = + - @ (kept as stored): import the columns as text so a spreadsheet shows them as written`,
      );
  return rows.count;
}

/** checkpoints.jsonl's records, each checked: its chain and key, its signature, its time-stamp token. */
export async function checkpointsOf(
  text: string,
  manifest: Pick<Manifest, 'chain' | 'key_id'>,
  key: KeyObject,
): Promise<Map<number, CheckpointRecord>> {
  const out = new Map<number, CheckpointRecord>();
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new ExportBroken('checkpoints.jsonl', 'does not end with a newline');
  for (const [i, line] of lines.entries()) {
    const place = `checkpoints.jsonl, line ${i + 1}`;
    let c: CheckpointRecord;
    try {
      c = JSON.parse(line);
    } catch {
      throw new ExportBroken(place, 'is not JSON');
    }
    if (c.chain !== manifest.chain) throw new ExportBroken(place, `is of chain ${c.chain}, not ${manifest.chain}`);
    if (c.key_id !== manifest.key_id) throw new ExportBroken(place, `is signed by key ${c.key_id}, not ${manifest.key_id}`);
    if (!checkpointSigned(c, key)) throw new ExportBroken(place, `the checkpoint at record ${c.seq} has a bad signature`);
    if (c.timestamp) {
      const genTime = await checkTimestamp(c.timestamp.token, checkpointPayload(c)).catch((err: Error) => {
        throw new ExportBroken(place, `the checkpoint at record ${c.seq} has a bad time-stamp: ${err.message}`);
      });
      // gen_time as kept (milliseconds) against the token's own (which may be finer)
      if (Math.abs(genTime.getTime() - Date.parse(c.timestamp.gen_time)) >= 1)
        throw new ExportBroken(
          place,
          `the checkpoint at record ${c.seq} names a time-stamp of ${c.timestamp.gen_time}, its token says ${genTime.toISOString()}`,
        );
    }
    out.set(c.seq, c);
  }
  return out;
}

/**
 * events.jsonl a line at a time: seq without gaps, prev_hash links, hashes recomputed, each sig the
 * audit key's (a record without one only before the first that has one: signing, once begun in a
 * chain, never stops), a signed checkpoint at the end. `seen` collects each record's hash.
 */
async function checkEvents(
  file: string,
  m: ZipMember,
  manifest: Manifest,
  checkpoints: Map<number, CheckpointRecord>,
  o: { publicKey: KeyObject | string; seen?: Map<number, string>; notes: string[] },
): Promise<number> {
  let signing = false;
  let unsigned = 0;
  if (!m) throw new ExportBroken('events.jsonl', 'missing from the archive');
  const lines = m.size
    ? createInterface({
        input: createReadStream(file, { start: m.offset, end: m.offset + m.size - 1 }),
        crlfDelay: Number.POSITIVE_INFINITY,
      })
    : [];
  let prev: EventRecord | undefined;
  let n = 0;
  for await (const line of lines) {
    n++;
    const place = `events.jsonl, line ${n}`;
    let r: EventRecord;
    try {
      r = JSON.parse(line);
    } catch {
      throw new ExportBroken(place, 'is not JSON');
    }
    if (recordHash(r) !== r.hash) throw new ExportBroken(place, `record ${r.seq} is not what its hash says`);
    if (r.sig !== undefined || signing) {
      if (!recordSigOk(r, o.publicKey))
        throw new ExportBroken(place, `record ${r.seq} was not written by this instance's server: ${r.sig ? 'bad' : 'no'} signature`);
      signing = true;
    } else unsigned++;
    o.seen?.set(r.seq, r.hash);
    if (prev && r.seq !== prev.seq + 1) throw new ExportBroken(place, `record ${r.seq} follows record ${prev.seq}`);
    if (prev && r.prev_hash !== prev.hash) throw new ExportBroken(place, `record ${r.seq}'s prev_hash is not record ${prev.seq}'s hash`);
    if (!prev && r.seq !== manifest.events.first_seq)
      throw new ExportBroken(place, `the first record is ${r.seq}, manifest.json says ${manifest.events.first_seq}`);
    if (!prev && r.seq === 1 && r.prev_hash !== GENESIS_HASH) throw new ExportBroken(place, "record 1's prev_hash is not 64 zeros");
    const mark = checkpoints.get(r.seq);
    if (mark && mark.hash !== r.hash) throw new ExportBroken(place, `record ${r.seq} is not the record its signed checkpoint names`);
    prev = r;
  }
  if (unsigned) o.notes.push(`${unsigned} event records from before record signatures (no sig), all before the first signed one`);
  const last = prev?.seq ?? 0;
  if (last !== manifest.events.last_seq)
    throw new ExportBroken('events.jsonl', `the last record is ${last}, manifest.json says ${manifest.events.last_seq}`);
  if (last && !checkpoints.has(last))
    throw new ExportBroken('events.jsonl', `its last record, ${last}, is named by no signed checkpoint in checkpoints.jsonl`);
  for (const seq of checkpoints.keys())
    if (seq < manifest.events.first_seq || seq > last)
      throw new ExportBroken('checkpoints.jsonl', `a checkpoint names record ${seq}, outside events.jsonl`);
  return n;
}

/**
 * Each witness of this export's chain must be among its records with its hash. One after its last
 * record names a cut tail when the export's period reached past the moment it was made (its
 * records then run to the chain's head); else it is outside the export, and a note says so.
 */
function checkWitnesses(kept: KeptWitness[], manifest: Manifest & { created_at?: string }, seen: Map<number, string>, notes: string[]) {
  const ofChain = kept.filter((w) => (w.chain ? w.chain === manifest.chain : true)).sort((a, b) => a.seq - b.seq);
  const toHead = manifest.created_at !== undefined && periodBounds(manifest.period).end > new Date(manifest.created_at);
  for (const w of ofChain) {
    const hash = seen.get(w.seq);
    if (hash !== undefined) {
      if (hash !== w.hash)
        throw new ExportBroken(
          'events.jsonl',
          `record ${w.seq} is not the record a witness kept (its hash differs: the chain was cut and grown again, or changed)`,
        );
    } else if (w.seq > manifest.events.last_seq && toHead)
      throw new ExportBroken(
        'events.jsonl',
        `record ${w.seq} is missing: a witness kept it, but the chain's records end at ${manifest.events.last_seq} (the tail was cut)`,
      );
    else if (w.chain || w.seq >= manifest.events.first_seq)
      notes.push(
        `witness of record ${w.seq} is outside this export's records (${manifest.events.first_seq}–${manifest.events.last_seq}): not checked`,
      );
  }
  const others = kept.length - ofChain.length;
  if (others) notes.push(`${others} witness${others === 1 ? '' : 'es'} of other chains: not checked`);
}
