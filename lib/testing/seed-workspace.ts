// A workspace of N realistic entries, made in the database itself (`npm run seed`, bench/million.ts,
// the tests that need a large workspace): one statement a batch generates the entries, their
// versions' bytes and every row one real write leaves, with no round trip per row.
//
// What a batch writes is what the API's writes would have: the entry (PUT …/entries: its
// entry.created record), each version as insertCurrent (replace-file.ts) stores a small inline file
// — the slot, the files row with the facts the reader finds in its bytes (file-facts.ts), the bytes
// in their `blobs` row (small-blobs.ts) under their real SHA-256, and its file.created + file.stored
// records — and the chain's head moved past them. Only base tables are written; what triggers
// keep (entry_folders, retention, the read cache's change log, …) they keep as for any write.
//
// Shape: entries spread evenly over `years` years ending at `end`, each in the folder `YYYY/MM` of
// its date and keyed by its invoice number; two or three versions of a small invoice XML (UBL or
// CII, alternately) with facts that vary (a few thousand sellers and buyers by VAT id, currencies,
// amounts, dates); a one-page PDF on every fourth entry. Everything after an entry's creation happens
// within seconds of it, so each chain's records are in time order (the workspace's keys are made
// now, by createOwner, and so come first in the chain but last in time: as a workspace imported
// from elsewhere would look).
import { randomUUID } from 'node:crypto';
import { canonicalJson, type Json } from '../events/canonical-json';
import { checkpointChains } from '../events/checkpoints';
import { type AuditKey, auditKey } from '../events/signing-key';
import { recordSigned } from '../events/record-signature';
import { systemActor } from '../events/catalogue';
import { createOwner } from '../access/create-owner';
import type { Database } from '../db/client';
import { CII_TEMPLATE, PDF_DATE, PDF_NUMBER, PDF_TEMPLATE, UBL_TEMPLATE } from './seed-templates';

export interface SeedOptions {
  entries: number;
  /** the workspace's name */
  name?: string;
  /** entries a statement (and a transaction) makes */
  batch?: number;
  /** the last entry's date; the first is `years` before it */
  end?: Date;
  years?: number;
  /** sellers and buyers: this many VAT ids */
  parties?: number;
  /** signs a checkpoint of the chain after each batch, as the server's checkpoint job would */
  key?: AuditKey;
  /** after each batch: entries made so far */
  progress?: (made: number) => void;
}

export interface SeededWorkspace {
  owner_id: string;
  /** the live API key: it authenticates as the workspace's owner */
  api_key: string;
}

const DAY = 86_400_000;
const defaultEnd = () => new Date(Date.UTC(new Date().getUTCFullYear(), 0, 1) - 1);

/** A literal of SQL text (for the few values this file itself builds: no caller's input). */
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const uuid = (s: string) => {
  if (!/^[0-9a-f-]{36}$/.test(s)) throw new Error(`not a uuid: ${s}`);
  return `'${s}'::uuid`;
};

const COUNTRIES = ['DE', 'FR', 'IT', 'NL', 'AT', 'BE', 'ES', 'PL'];
const FORMS = ['GmbH', 'SARL', 'S.r.l.', 'B.V.', 'GmbH', 'NV', 'S.L.', 'Sp. z o.o.'];
const RATES = ['19', '20', '22', '21', '20', '21', '21', '23'];
const STEMS = ['Müller', 'Schmidt', 'Dupont', 'Rossi', 'Jansen', 'Gruber', 'Peeters', 'García', 'Nowak', 'Lindqvist', 'Weiß', 'Lefèvre'];
const TRADES = ['Handel', 'Bau', 'Logistik', 'Beratung', 'Technik', 'Druck', 'Energie'];
const arr = (xs: string[]) => `ARRAY[${xs.map(lit).join(',')}]`;

/** A party (seller or buyer) p in 0 … parties-1: its VAT id and its name, as SQL expressions. */
const partyVat = (p: string) =>
  `(${arr(COUNTRIES)})[${p} % 8 + 1] || lpad(((${p}::bigint * 7654321 + 100000007) % 1000000000)::text, 9, '0')`;
const partyName = (p: string) =>
  `(${arr(STEMS)})[${p} % 12 + 1] || ' ' || (${arr(TRADES)})[${p} % 7 + 1] || ' ' || lpad(${p}::text, 4, '0') || ' ' || (${arr(FORMS)})[${p} % 8 + 1]`;

/**
 * The statement that makes entries [from, to) of a workspace of `total` (one transaction): every
 * row of them, and their records in the chain (live) of the owner, whose key `actor` names.
 */
function batchSql(o: {
  owner: string;
  actor: string;
  createdBy: string;
  from: number;
  to: number;
  total: number;
  start: Date;
  spanMs: number;
  parties: number;
  /** each record's id and sig, in the chain's order (signedRecords) */
  records: { id: string; sig: string }[];
}) {
  const step = o.spanMs / o.total;
  const owner = uuid(o.owner);
  return `DO $seed$
DECLARE
  ids UUID[] := ARRAY[${o.records.map((r) => uuid(r.id)).join(',')}];
  sigs TEXT[] := ARRAY[${o.records.map((r) => lit(r.sig)).join(',')}];
  prev TEXT;
  n BIGINT;
BEGIN
  CREATE TEMP TABLE seed_e ON COMMIT DROP AS
  SELECT x.*, CASE WHEN x.i % 2 = 0 THEN 'ubl' ELSE 'cii' END AS syntax,
    CASE WHEN x.i % 2 = 0 THEN 'RE' ELSE 'FA' END || '-' || to_char(x.t AT TIME ZONE 'UTC', 'YYYY') || '-' || lpad(x.i::text, 7, '0') AS number,
    to_char(x.t AT TIME ZONE 'UTC', 'YYYY/MM') AS folder,
    (x.t AT TIME ZONE 'UTC')::date AS issue, (x.t AT TIME ZONE 'UTC')::date + 30 AS due,
    ${partyVat('x.seller')} AS seller_vat, ${partyName('x.seller')} AS seller_name,
    ${partyVat('x.buyer')} AS buyer_vat, ${partyName('x.buyer')} AS buyer_name,
    CASE x.i % 20 WHEN 0 THEN 'USD' WHEN 1 THEN 'GBP' WHEN 2 THEN 'CHF' WHEN 3 THEN 'SEK' ELSE 'EUR' END AS currency,
    (${arr(RATES)})[x.seller % 8 + 1] AS rate,
    round(((x.i::bigint * 7907) % 500000 + 1000)::numeric / 100, 2) AS net,
    CASE WHEN (x.i::bigint * 2654435761) % 3 = 0 THEN 3 ELSE 2 END AS versions,
    x.i % 4 = 1 AS pdf
  FROM (
    SELECT i, gen_random_uuid() AS id,
      date_trunc('milliseconds', ${lit(o.start.toISOString())}::timestamptz + ((i + 0.5) * ${step}) * interval '1 millisecond') AS t,
      ((i::bigint * 7919) % ${o.parties})::int AS seller, ((i::bigint * 104729 + 13) % ${o.parties})::int AS buyer
    FROM generate_series(${o.from}, ${o.to - 1}) AS i
  ) x;

  ANALYZE seed_e;
  INSERT INTO entries (id, owner_id, sandbox, key, folder, name, meta, created_at, updated_at)
    SELECT id, ${owner}, false, number, folder, 'Rechnung ' || number || ' ' || seller_name,
      json_build_object('seller', seller_name, 'amount', (net + round(net * rate::numeric / 100, 2))::text), t, t
    FROM seed_e ORDER BY i;

  -- Each version: step 1, 3, 4 the XML's versions 1, 2, 3; step 2 the PDF. Stored step seconds after the entry.
  CREATE TEMP TABLE seed_f ON COMMIT DROP AS
  SELECT v.*, sha256(v.bytes) AS digest, length(v.bytes) AS size, gen_random_uuid() AS id,
    translate(encode(substring(sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())) FROM 1 FOR 12), 'base64'), '+/', '-_') AS url_nonce
  FROM (
    SELECT e.i, e.id AS entry_id, e.t + k.step * interval '1 second' AS at, k.step, k.version, 'format' AS category, 'invoice.xml' AS name,
      'application/xml' AS mime, true AS xml,
      convert_to(format(CASE WHEN e.syntax = 'ubl' THEN ${lit(UBL_TEMPLATE)} ELSE ${lit(CII_TEMPLATE)} END,
        e.number, e.issue::text, e.due::text, to_char(e.issue, 'YYYYMMDD'), to_char(e.due, 'YYYYMMDD'),
        CASE k.version WHEN 1 THEN 'Rechnung' ELSE 'Korrektur ' || (k.version - 1) END, e.currency,
        e.seller_name, e.seller_vat, e.buyer_name, e.buyer_vat,
        e.net::text, round(e.net * e.rate::numeric / 100, 2)::text, (e.net + round(e.net * e.rate::numeric / 100, 2))::text, e.rate), 'UTF8') AS bytes
    FROM seed_e e CROSS JOIN LATERAL (VALUES (1, 1), (3, 2), (4, 3)) AS k(step, version)
    WHERE k.version <= e.versions
    UNION ALL
    SELECT e.i, e.id, e.t + interval '2 seconds', 2, 1, 'attachment', 'invoice.pdf', 'application/pdf', false,
      convert_to(replace(replace(${lit(PDF_TEMPLATE)}, ${lit(PDF_NUMBER)}, e.number), ${lit(PDF_DATE)}, e.issue::text), 'UTF8')
    FROM seed_e e WHERE e.pdf
  ) v;

  ANALYZE seed_f;
  INSERT INTO blobs (hash, size, data)
    SELECT DISTINCT ON (digest) encode(digest, 'hex'), size, bytes FROM seed_f ORDER BY digest
    ON CONFLICT (hash) DO NOTHING;

  CREATE TEMP TABLE seed_s ON COMMIT DROP AS
    SELECT gen_random_uuid() AS id, entry_id, category, name, max(version) AS seq,
      (array_agg(id ORDER BY version DESC))[1] AS current_id
    FROM seed_f GROUP BY entry_id, category, name;
  ANALYZE seed_s;
  INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
    SELECT id, entry_id, category, name, seq, current_id FROM seed_s;

  INSERT INTO files (id, entry_id, slot_id, name, category, key, "desc", mime, size, hash, stored, embeddable, private, meta, version,
      url_nonce, created_at, stored_at, created_by, facts, fact_seller_vat, fact_buyer_vat, fact_number, fact_issue_date, fact_currency)
    SELECT f.id, f.entry_id, s.id, f.name, f.category, NULL, '', f.mime, f.size, encode(f.digest, 'hex'), true, false, false, '{}', f.version,
      f.url_nonce, f.at, f.at, ${lit(o.createdBy)}::jsonb,
      CASE WHEN f.xml THEN jsonb_build_object('syntax', e.syntax, 'type', 'invoice', 'number', e.number, 'issue_date', e.issue::text,
        'due_date', e.due::text, 'currency', e.currency,
        'seller', jsonb_build_object('name', e.seller_name, 'vat_id', e.seller_vat),
        'buyer', jsonb_build_object('name', e.buyer_name, 'vat_id', e.buyer_vat),
        'net', e.net::text, 'tax', round(e.net * e.rate::numeric / 100, 2)::text,
        'payable', (e.net + round(e.net * e.rate::numeric / 100, 2))::text) END,
      CASE WHEN f.xml THEN e.seller_vat END, CASE WHEN f.xml THEN e.buyer_vat END, CASE WHEN f.xml THEN e.number END,
      CASE WHEN f.xml THEN e.issue END, CASE WHEN f.xml THEN e.currency END
    FROM seed_f f JOIN seed_e e ON e.id = f.entry_id JOIN seed_s s ON s.entry_id = f.entry_id AND s.category = f.category AND s.name = f.name
    ORDER BY f.i, f.step;

  -- The records, as silo_append_events (prisma/sql/events.sql) writes them: entry.created, then per
  -- version file.created and file.stored, hashed one after another along the chain.
  SELECT h.seq, h.hash INTO n, prev FROM chain_heads h WHERE h.owner_id = ${owner} AND h.sandbox = false FOR UPDATE;
  CREATE TEMP TABLE seed_v ON COMMIT DROP AS
  SELECT q.k, ids[q.k] AS id, sigs[q.k] AS sig, q."at", q.type, q.entry_id, q.file_id, q.version, q.data,
    '{"actor":' || ${lit(o.actor)} || ',"at":"' || to_char(q."at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '","data":' || q.data
      || ',"entry_id":"' || q.entry_id::text || '","file_id":' || "silo_json_text"(q.file_id::text) || ',"id":"' || ids[q.k]::text
      || '","prev_hash":"' AS head,
    '","request_id":null,"sandbox":false,"seq":' || (n + q.k)::text || ',"sig":' || to_json(sigs[q.k])::text || ',"type":"' || q.type || '","version":' || coalesce(q.version::text, 'null') || '}' AS tail
  FROM (
    SELECT row_number() OVER (ORDER BY u.i, u.step, u.sub) AS k, u.* FROM (
      SELECT e.i, 0 AS step, 0 AS sub, e.t AS "at", 'entry.created' AS type, e.id AS entry_id, NULL::uuid AS file_id, NULL::int AS version,
        '{"folder":' || "silo_json_text"(e.folder) || ',"key":' || "silo_json_text"(e.number)
          || ',"meta":{"amount":' || "silo_json_text"((e.net + round(e.net * e.rate::numeric / 100, 2))::text)
          || ',"seller":' || "silo_json_text"(e.seller_name) || '},"name":' || "silo_json_text"('Rechnung ' || e.number || ' ' || e.seller_name) || '}' AS data
      FROM seed_e e
      UNION ALL
      SELECT f.i, f.step, 0, f.at, 'file.created', f.entry_id, f.id, NULL,
        "silo_file_event_data"(f.name, f.category, NULL, f.mime, f.size, encode(f.digest, 'hex'), false, NULL)
      FROM seed_f f
      UNION ALL
      SELECT f.i, f.step, 1, f.at, 'file.stored', f.entry_id, f.id, f.version,
        "silo_file_event_data"(f.name, f.category, NULL, f.mime, f.size, encode(f.digest, 'hex'), NULL, NULL)
      FROM seed_f f
    ) u
  ) q;
  IF (SELECT count(*) FROM seed_v) <> cardinality(ids) THEN
    RAISE EXCEPTION 'the seed signed % records, its batch makes %', cardinality(ids), (SELECT count(*) FROM seed_v);
  END IF;
  ALTER TABLE seed_v ADD PRIMARY KEY (k);
  ANALYZE seed_v;
  -- The chain: each record's hash over its text with the previous record's hash in it.
  INSERT INTO events (id, owner_id, sandbox, seq, "at", type, actor, entry_id, file_id, version, data, request_id, prev_hash, hash, sig)
  WITH RECURSIVE c(k, prev, hash) AS (
    SELECT 0::bigint, NULL::text, prev
    UNION ALL
    SELECT v.k, c.hash, encode(sha256(convert_to(v.head || c.hash || v.tail, 'UTF8')), 'hex') FROM c JOIN seed_v v ON v.k = c.k + 1
  )
  SELECT v.id, ${owner}, false, n + v.k, v."at", v.type, ${lit(o.actor)}::jsonb, v.entry_id, v.file_id, v.version, v.data::jsonb, NULL, c.prev, c.hash, v.sig
  FROM c JOIN seed_v v ON v.k = c.k ORDER BY v.k;
  UPDATE chain_heads h SET seq = n + x.k, hash = x.hash, "at" = x."at"
    FROM (SELECT e.seq - n AS k, e.hash, e."at" FROM events e WHERE e.owner_id = ${owner} AND e.sandbox = false ORDER BY e.seq DESC LIMIT 1) x
    WHERE h.owner_id = ${owner} AND h.sandbox = false;
END
$seed$`;
}

/**
 * The records of entries [from, to) in the order batchSql chains them, each with a fresh id and
 * its sig (record-signature.ts), as the server signs what it appends: entry.created, then per
 * version (step 1, 2 the PDF, 3, 4) file.created and file.stored.
 */
function signedRecords(key: AuditKey, actor: Json, from: number, to: number) {
  const out: { id: string; sig: string }[] = [];
  const add = (type: string) => {
    const id = randomUUID();
    out.push({ id, sig: recordSigned(key, { actor, id, request_id: null, type }) });
  };
  for (let i = from; i < to; i++) {
    add('entry.created');
    const versions = (BigInt(i) * 2654435761n) % 3n === 0n ? 3 : 2;
    const steps = [1, i % 4 === 1 ? 2 : 0, 3, versions === 3 ? 4 : 0].filter(Boolean);
    for (const _ of steps) {
      add('file.created');
      add('file.stored');
    }
  }
  return out;
}

/**
 * A new workspace with `entries` entries (in its live environment), made in batches; its live
 * API key. The tables are analysed at the end, as autovacuum would after such a load.
 */
export async function seedWorkspace(db: Database, o: SeedOptions): Promise<SeededWorkspace> {
  const owner = await createOwner(db.prisma, o.name ?? `seeded ${o.entries}`, systemActor('seed'));
  const live = owner.api_keys.find((k) => !k.sandbox);
  if (!live) throw new Error('createOwner made no live key');
  const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: live.id } });
  // Who the versions name, and the records' actor: the live key, as the API would.
  const actor = { id: row.id, name: row.prefix, type: 'owner_key' };
  const end = o.end ?? defaultEnd();
  const spanMs = Math.round((o.years ?? 10) * 365.2425 * DAY);
  const start = new Date(end.getTime() - spanMs);
  const batch = o.batch ?? 10_000;
  const key = o.key ?? (await auditKey());
  for (let from = 0; from < o.entries; from += batch) {
    const to = Math.min(o.entries, from + batch);
    await db.sql.exec(
      batchSql({
        owner: owner.id,
        actor: canonicalJson(actor),
        createdBy: JSON.stringify(actor),
        from,
        to,
        total: o.entries,
        start,
        spanMs,
        parties: o.parties ?? 3000,
        records: signedRecords(key, actor, from, to),
      }),
    );
    if (o.key) await checkpointChains(db.prisma, o.key, new Date(), { ownerId: owner.id, sandbox: false });
    o.progress?.(to);
  }
  await db.sql.exec('ANALYZE entries; ANALYZE entry_folders; ANALYZE file_slots; ANALYZE files; ANALYZE blobs; ANALYZE events');
  return { owner_id: owner.id, api_key: live.key };
}
