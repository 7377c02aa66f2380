// Checks an auditor's export as `npm run verify-export` does (docs/api.md, Export): every byte of
// the ZIP accounted for (zip-structure.ts), every member's SHA-256 and size as manifest.json says,
// manifest.sig the audit key's signature over manifest.json, events.jsonl a chain (each record's
// hash recomputed, each prev_hash the previous hash) ending in a record a signed checkpoint of
// checkpoints.jsonl names, and every version of files.csv present with its sha256. The first
// mismatch is named. Reads members by position; events.jsonl a line at a time.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { checkpointPayload, checkpointSigned, type CheckpointRecord } from '../../events/checkpoints';
import { checkTimestamp } from '../../events/timestamp';
import { type EventRecord, recordHash } from '../../events/record';
import { verifyBytes } from '../../events/signing-key';
import { recordSigOk } from '../../events/record-signature';
import type { KeptWitness } from '../../events/witness-file';
import { looksLikeFormula, parseCsv } from './csv';
import { EXPORT_FORMAT, periodBounds } from './plan-export';
import { ENTRIES_TABLE, FILES_TABLE } from './tables';
import { ExportBroken, readExportZip, type ZipMember } from './zip-structure';

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
  const members = await readExportZip(file);
  const byName = new Map(members.map((m) => [m.name, m]));
  const text = async (name: string) => {
    const m = byName.get(name);
    if (!m) throw new ExportBroken(name, 'missing from the archive');
    return (await readRange(file, m)).toString('utf8');
  };
  const manifestText = await text('manifest.json');
  const signature = (await text('manifest.sig')).trim();
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText);
  } catch {
    throw new ExportBroken('manifest.json', 'is not JSON');
  }
  if (manifest?.format !== EXPORT_FORMAT) throw new ExportBroken('manifest.json', `format is not ${EXPORT_FORMAT}`);
  let key: KeyObject;
  try {
    key = opts.publicKey ?? createPublicKey(manifest.public_key);
  } catch {
    throw new ExportBroken('manifest.json', 'public_key is not a public key');
  }
  if (!verifyBytes(key, manifestText, signature))
    throw new ExportBroken('manifest.sig', "is not the audit key's signature over manifest.json");

  for (const m of members) {
    if (m.name === 'manifest.json' || m.name === 'manifest.sig') continue;
    const listed = manifest.files?.[m.name];
    if (!listed) throw new ExportBroken(m.name, 'is not in manifest.json');
    if (listed.size !== m.size) throw new ExportBroken(m.name, `is ${m.size} bytes, manifest.json says ${listed.size}`);
    if (listed.sha256 !== m.sha256) throw new ExportBroken(m.name, `has sha256 ${m.sha256}, manifest.json says ${listed.sha256}`);
  }
  for (const name of Object.keys(manifest.files ?? {}))
    if (!byName.has(name)) throw new ExportBroken(name, 'is in manifest.json but not in the archive');

  const notes: string[] = [];
  const versions = await checkTables(byName, text, notes);
  const checkpoints = await checkpointsOf(await text('checkpoints.jsonl'), manifest, key);
  const seen = new Map<number, string>();
  const events = await checkEvents(file, byName.get('events.jsonl') as ZipMember, manifest, checkpoints, {
    publicKey: opts.publicKey ?? manifest.public_key,
    seen: opts.witnesses?.length ? seen : undefined,
    notes,
  });
  checkWitnesses(opts.witnesses ?? [], manifest, seen, notes);
  if (!opts.publicKey)
    notes.push(
      `signatures checked with the key in manifest.json (key_id ${manifest.key_id}): compare it with the instance's GET /utils/v1/audit-key, or pass --public-key`,
    );
  return {
    members: members.length,
    versions,
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

async function readRange(file: string, m: ZipMember): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(m.size);
    await fh.read(b, 0, m.size, m.offset);
    return b;
  } finally {
    await fh.close();
  }
}

/** entries.csv and files.csv: headers, every version's member present with its sha256 and size. */
async function checkTables(byName: Map<string, ZipMember>, text: (name: string) => Promise<string>, notes: string[]): Promise<number> {
  const table = async (name: string, columns: string[]) => {
    let rows: string[][];
    try {
      rows = parseCsv(await text(name));
    } catch (err) {
      throw new ExportBroken(name, `is not RFC 4180 CSV: ${(err as Error).message}`);
    }
    if (rows[0]?.join(',') !== columns.join(',')) throw new ExportBroken(name, 'the header row is not the columns index.xml names');
    const formulas = rows.slice(1).reduce((n, r) => n + r.filter(looksLikeFormula).length, 0);
    if (formulas)
      notes.push(
        `${name}: ${formulas} field(s) begin with = + - @ (kept as stored): import the columns as text so a spreadsheet shows them as written`,
      );
    return rows.slice(1).map((r, i) => {
      if (r.length !== columns.length) throw new ExportBroken(`${name}, record ${i + 2}`, `has ${r.length} fields, not ${columns.length}`);
      return Object.fromEntries(columns.map((c, j) => [c, r[j]]));
    });
  };
  const entries = await table(
    ENTRIES_TABLE.url,
    ENTRIES_TABLE.columns.map((c) => c.name),
  );
  const entryIds = new Set(entries.map((e) => e.entry_id));
  const files = await table(
    FILES_TABLE.url,
    FILES_TABLE.columns.map((c) => c.name),
  );
  const listed = new Set<string>();
  files.forEach((f, i) => {
    const place = `files.csv, record ${i + 2} (${f.path})`;
    const m = byName.get(f.path);
    if (!f.path.startsWith('files/') || !m) throw new ExportBroken(place, 'its bytes are not in the archive');
    if (m.sha256 !== f.sha256) throw new ExportBroken(place, `its bytes have sha256 ${m.sha256}, the row says ${f.sha256}`);
    if (String(m.size) !== f.size) throw new ExportBroken(place, `its bytes are ${m.size} long, the row says ${f.size}`);
    if (!entryIds.has(f.entry_id)) throw new ExportBroken(place, `its entry ${f.entry_id} is not in entries.csv`);
    listed.add(f.path);
  });
  for (const name of byName.keys())
    if (name.startsWith('files/') && !listed.has(name)) throw new ExportBroken(name, 'is not a version files.csv lists');
  return files.length;
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
