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

-- RFC 8785 (JSON Canonicalization Scheme) of a jsonb value: the text an event's hash is taken of,
-- the same as lib/events/canonical-json.ts writes (canonical-json.test.ts compares them). Keys in
-- UTF-16 code-unit order: byte order ("C") equals it unless a key holds a character past U+FFFF,
-- and then every key of that object is sorted by its UTF-16 code units spelled in hex. Strings are
-- escaped by to_json as ECMAScript escapes them. Numbers must be integers (ECMAScript and
-- PostgreSQL write those alike): anything else is refused rather than hashed wrongly.
CREATE FUNCTION "silo_utf16_key"(s TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(string_agg(
    CASE WHEN ascii(c) < 65536 THEN lpad(to_hex(ascii(c)), 4, '0')
      ELSE lpad(to_hex(55296 + ((ascii(c) - 65536) >> 10)), 4, '0') || lpad(to_hex(56320 + ((ascii(c) - 65536) & 1023)), 4, '0') END,
    '' ORDER BY n), '')
  FROM regexp_split_to_table(s, '') WITH ORDINALITY AS t(c, n)
$$;

CREATE FUNCTION "silo_jcs"(v JSONB) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  out TEXT;
  sep TEXT := '';
  k TEXT;
  e JSONB;
  wide BOOLEAN;
BEGIN
  CASE jsonb_typeof(v)
  WHEN 'object' THEN
    out := '{';
    -- A character past U+FFFF anywhere in the text: then sort this object's keys by code units.
    wide := v::text ~ '[\U00010000-\U0010FFFF]';
    -- Strings and literals are written in this loop; only objects, arrays and numbers take a call.
    FOR k, e IN SELECT o.key, o.value FROM jsonb_each(v) AS o ORDER BY CASE WHEN wide THEN "silo_utf16_key"(o.key) ELSE o.key END COLLATE "C" LOOP
      out := out || sep || to_json(k)::text || ':' || CASE jsonb_typeof(e)
        WHEN 'string' THEN to_json(e #>> '{}')::text
        WHEN 'boolean' THEN e::text
        WHEN 'null' THEN 'null'
        ELSE "silo_jcs"(e) END;
      sep := ',';
    END LOOP;
    RETURN out || '}';
  WHEN 'array' THEN
    out := '[';
    FOR e IN SELECT a.value FROM jsonb_array_elements(v) WITH ORDINALITY AS a(value, n) ORDER BY a.n LOOP
      out := out || sep || CASE jsonb_typeof(e)
        WHEN 'string' THEN to_json(e #>> '{}')::text
        WHEN 'boolean' THEN e::text
        WHEN 'null' THEN 'null'
        ELSE "silo_jcs"(e) END;
      sep := ',';
    END LOOP;
    RETURN out || ']';
  WHEN 'string' THEN
    RETURN to_json(v #>> '{}')::text;
  WHEN 'number' THEN
    IF v::text !~ '^-?(0|[1-9][0-9]{0,14})$' THEN
      RAISE EXCEPTION 'an event holds only integers up to 15 digits, not %', v::text;
    END IF;
    RETURN v::text;
  ELSE
    RETURN v::text; -- true, false, null
  END CASE;
END
$$;

-- Appends one record to the chain of (owner, sandbox) — or, with p_owner NULL, of the entry
-- p_entry's workspace and environment — in the caller's statement and transaction:
-- locks the chain's head row (only this chain's writers wait), takes the next seq and the previous
-- hash, hashes the record as GET /silo/v1/events shows it, and moves the head. Call it after the
-- change's own row locks (lib/events/append-event.ts): the head is the last lock a change takes.
CREATE FUNCTION "silo_append_event"(
  p_id UUID, p_owner UUID, p_sandbox BOOLEAN, p_type TEXT, p_actor JSONB, p_entry UUID, p_file UUID,
  p_version INTEGER, p_data JSONB, p_request_id TEXT
) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  head RECORD;
  at_ms TIMESTAMPTZ := date_trunc('milliseconds', clock_timestamp());
  rec JSONB;
  digest TEXT;
BEGIN
  IF p_owner IS NULL THEN
    SELECT "owner_id", "sandbox" INTO p_owner, p_sandbox FROM "entries" WHERE "id" = p_entry;
    IF p_owner IS NULL THEN
      RAISE EXCEPTION 'an event of entry % names no workspace (the entry is gone)', p_entry;
    END IF;
  END IF;
  INSERT INTO "chain_heads" ("owner_id", "sandbox", "seq", "hash", "at")
    VALUES (p_owner, p_sandbox, 1, repeat('0', 64), at_ms)
    ON CONFLICT ("owner_id", "sandbox") DO UPDATE SET "seq" = "chain_heads"."seq" + 1
    RETURNING "seq", "hash" INTO head;
  rec := jsonb_build_object(
    'id', p_id, 'seq', head.seq, 'at', to_char(at_ms AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'type', p_type, 'sandbox', p_sandbox, 'actor', p_actor, 'entry_id', p_entry, 'file_id', p_file,
    'version', p_version, 'data', coalesce(p_data, '{}'::jsonb), 'request_id', p_request_id, 'prev_hash', head.hash);
  digest := encode(sha256(convert_to("silo_jcs"(rec), 'UTF8')), 'hex');
  INSERT INTO "events" ("id", "owner_id", "sandbox", "seq", "at", "type", "actor", "entry_id", "file_id", "version", "data",
      "request_id", "prev_hash", "hash")
    VALUES (p_id, p_owner, p_sandbox, head.seq, at_ms, p_type, p_actor, p_entry, p_file, p_version, coalesce(p_data, '{}'::jsonb),
      p_request_id, head.hash, digest);
  UPDATE "chain_heads" SET "hash" = digest, "at" = at_ms WHERE "owner_id" = p_owner AND "sandbox" = p_sandbox;
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
