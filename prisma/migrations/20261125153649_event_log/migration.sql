-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "type" TEXT NOT NULL,
    "actor" JSONB NOT NULL,
    "entry_id" UUID,
    "file_id" UUID,
    "version" INTEGER,
    "data" JSONB NOT NULL,
    "request_id" TEXT,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_heads" (
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_heads_pkey" PRIMARY KEY ("owner_id","sandbox")
);

-- CreateTable
CREATE TABLE "deleted_chains" (
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deleted_chains_pkey" PRIMARY KEY ("owner_id","sandbox")
);

-- CreateIndex
CREATE INDEX "events_owner_id_sandbox_entry_id_seq_idx" ON "events"("owner_id", "sandbox", "entry_id", "seq");

-- CreateIndex
CREATE INDEX "events_owner_id_sandbox_type_seq_idx" ON "events"("owner_id", "sandbox", "type", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "events_owner_id_sandbox_seq_key" ON "events"("owner_id", "sandbox", "seq");

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chain_heads" ADD CONSTRAINT "chain_heads_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A record's hash is the SHA-256 of its RFC 8785 (JSON Canonicalization Scheme) text. The text is
-- spliced here from parts already canonical: the record's own fields in their sorted order, the
-- actor and (for records whose data the application builds) the data as lib/events/canonical-json.ts
-- writes them, and a file's data by silo_file_event_data below. Strings are escaped by to_json,
-- which escapes exactly what ECMAScript's JSON.stringify does (quote, backslash, control
-- characters as \b \f \n \r \t or \u00xx); integers are written alike by both. No loop, no
-- sort: the cost of a record is one concatenation and one sha256 (event-log.test.ts holds the
-- text to canonical-json.ts, and verify recomputes it from the record as the API shows it).
CREATE FUNCTION "silo_json_text"(s TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(to_json(s)::text, 'null')
$$;

-- A version's data: {category, from?, key, mime, name, placeholder?, sha256, size}, keys in order.
CREATE FUNCTION "silo_file_event_data"(
  p_name TEXT, p_category TEXT, p_key TEXT, p_mime TEXT, p_size BIGINT, p_hash TEXT, p_placeholder BOOLEAN, p_from TEXT
) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT '{"category":' || "silo_json_text"(p_category) || coalesce(',"from":' || p_from, '')
    || ',"key":' || "silo_json_text"(p_key) || ',"mime":' || "silo_json_text"(p_mime) || ',"name":' || "silo_json_text"(p_name)
    || coalesce(',"placeholder":' || p_placeholder::text, '') || ',"sha256":' || "silo_json_text"(p_hash)
    || ',"size":' || p_size::text || '}'
$$;

-- Appends records to the chain of (owner, sandbox) — or, with p_owner NULL, of the entry
-- p_entry's workspace and environment — in the caller's statement and transaction: locks the
-- chain's head row (only this chain's writers wait), takes the next seqs and the previous hash,
-- hashes each record as GET /silo/v1/events shows it, inserts them and moves the head once.
-- One record per element of p_ids, p_types, p_versions and p_datas; they share the actor, entry,
-- file and request. p_actor and p_datas are canonical JSON text. Call it after the change's own
-- row locks (lib/events/append-event.ts): the head is the last lock a change takes. Answers the
-- last record's seq.
CREATE FUNCTION "silo_append_events"(
  p_ids UUID[], p_owner UUID, p_sandbox BOOLEAN, p_types TEXT[], p_actor TEXT, p_entry UUID, p_file UUID,
  p_versions INTEGER[], p_datas TEXT[], p_request_id TEXT
) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  n INTEGER := cardinality(p_ids);
  head RECORD;
  at_ms TIMESTAMPTZ := date_trunc('milliseconds', clock_timestamp());
  at_text TEXT := to_char(at_ms AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  seqs BIGINT[] := '{}';
  prevs TEXT[] := '{}';
  digests TEXT[] := '{}';
  prev TEXT;
  i INTEGER;
BEGIN
  IF p_owner IS NULL THEN
    SELECT "owner_id", "sandbox" INTO p_owner, p_sandbox FROM "entries" WHERE "id" = p_entry;
    IF p_owner IS NULL THEN
      RAISE EXCEPTION 'an event of entry % names no workspace (the entry is gone)', p_entry;
    END IF;
  END IF;
  INSERT INTO "chain_heads" ("owner_id", "sandbox", "seq", "hash", "at")
    VALUES (p_owner, p_sandbox, n, repeat('0', 64), at_ms)
    ON CONFLICT ("owner_id", "sandbox") DO UPDATE SET "seq" = "chain_heads"."seq" + n
    RETURNING "seq", "hash" INTO head;
  prev := head.hash;
  FOR i IN 1 .. n LOOP
    seqs := seqs || (head.seq - n + i);
    prevs := prevs || prev;
    -- The record's keys in RFC 8785 order: actor, at, data, entry_id, file_id, id, prev_hash,
    -- request_id, sandbox, seq, type, version.
    prev := encode(sha256(convert_to(
      '{"actor":' || p_actor || ',"at":"' || at_text || '","data":' || p_datas[i]
      || ',"entry_id":' || "silo_json_text"(p_entry::text) || ',"file_id":' || "silo_json_text"(p_file::text) || ',"id":"' || p_ids[i]::text
      || '","prev_hash":"' || prevs[i] || '","request_id":' || "silo_json_text"(p_request_id) || ',"sandbox":' || p_sandbox::text
      || ',"seq":' || seqs[i]::text || ',"type":' || "silo_json_text"(p_types[i]) || ',"version":' || coalesce(p_versions[i]::text, 'null') || '}',
      'UTF8')), 'hex');
    digests := digests || prev;
  END LOOP;
  INSERT INTO "events" ("id", "owner_id", "sandbox", "seq", "at", "type", "actor", "entry_id", "file_id", "version", "data",
      "request_id", "prev_hash", "hash")
    SELECT r.id, p_owner, p_sandbox, r.seq, at_ms, r.type, p_actor::jsonb, p_entry, p_file, r.version, r.data::jsonb,
      p_request_id, r.prev, r.digest
    FROM unnest(p_ids, seqs, p_types, p_versions, p_datas, prevs, digests) AS r(id, seq, type, version, data, prev, digest);
  UPDATE "chain_heads" SET "hash" = prev, "at" = at_ms WHERE "owner_id" = p_owner AND "sandbox" = p_sandbox;
  RETURN head.seq;
END
$$;

CREATE FUNCTION "silo_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is refused', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
END
$$;

-- Append-only, in the database: UPDATE and DELETE of a record are refused, whoever sends them,
-- except the cascade of a deleted workspace (its owner row already gone in this transaction, and
-- its final heads kept in deleted_chains by the trigger below). ALWAYS: a session in replica mode
-- (pg_restore --disable-triggers sets it per table, logical replication per session) is refused too.
CREATE FUNCTION "silo_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "owners" WHERE "id" = OLD."owner_id")
      AND EXISTS (SELECT 1 FROM "deleted_chains" WHERE "owner_id" = OLD."owner_id" AND "sandbox" = OLD."sandbox") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the event log is append-only: % of % is refused', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
END
$$;
CREATE TRIGGER "events_append_only" BEFORE UPDATE OR DELETE ON "events" FOR EACH ROW EXECUTE FUNCTION "silo_events_append_only"();
CREATE TRIGGER "events_no_truncate" BEFORE TRUNCATE ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "silo_refuse_change"();
ALTER TABLE "events" ENABLE ALWAYS TRIGGER "events_append_only";
ALTER TABLE "events" ENABLE ALWAYS TRIGGER "events_no_truncate";

CREATE TRIGGER "deleted_chains_append_only" BEFORE UPDATE OR DELETE ON "deleted_chains" FOR EACH ROW EXECUTE FUNCTION "silo_refuse_change"();
CREATE TRIGGER "deleted_chains_no_truncate" BEFORE TRUNCATE ON "deleted_chains" FOR EACH STATEMENT EXECUTE FUNCTION "silo_refuse_change"();
ALTER TABLE "deleted_chains" ENABLE ALWAYS TRIGGER "deleted_chains_append_only";
ALTER TABLE "deleted_chains" ENABLE ALWAYS TRIGGER "deleted_chains_no_truncate";

-- A workspace's deletion first writes each of its chains' final head into deleted_chains.
CREATE FUNCTION "silo_keep_final_heads"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "deleted_chains" ("owner_id", "sandbox", "seq", "hash")
    SELECT "owner_id", "sandbox", "seq", "hash" FROM "chain_heads" WHERE "owner_id" = OLD."id"
    ON CONFLICT DO NOTHING;
  RETURN OLD;
END
$$;
CREATE TRIGGER "owners_keep_final_heads" BEFORE DELETE ON "owners" FOR EACH ROW EXECUTE FUNCTION "silo_keep_final_heads"();
ALTER TABLE "owners" ENABLE ALWAYS TRIGGER "owners_keep_final_heads";
