-- The event log (lib/events/): records appended by the statement or transaction of the change they
-- record, chained by hash per workspace and environment (chain_heads), and never changed. The guards
-- fire ALWAYS: a session in replica mode (pg_restore --disable-triggers, logical replication) is
-- refused too.

-- A string as JSON text, or null. to_json escapes exactly what ECMAScript's JSON.stringify does,
-- so a record's text hashes as lib/events/canonical-json.ts writes it (RFC 8785).
CREATE OR REPLACE FUNCTION silo_json_text(s text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(to_json(s)::text, 'null')
$$;

-- A version's data in a record: {category, from?, key, mime, name, placeholder?, sha256, size},
-- keys in order.
CREATE OR REPLACE FUNCTION silo_file_event_data(p_name text, p_category text, p_key text, p_mime text,
    p_size bigint, p_hash text, p_placeholder boolean, p_from text)
  RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT '{"category":' || "silo_json_text"(p_category) || coalesce(',"from":' || p_from, '')
    || ',"key":' || "silo_json_text"(p_key) || ',"mime":' || "silo_json_text"(p_mime) || ',"name":' || "silo_json_text"(p_name)
    || coalesce(',"placeholder":' || p_placeholder::text, '') || ',"sha256":' || "silo_json_text"(p_hash)
    || ',"size":' || p_size::text || '}'
$$;

-- Appends records to the chain of (p_owner, p_sandbox) — with p_owner NULL, of entry p_entry's —
-- in the caller's statement and transaction: locks the chain's head row (the last lock a change
-- takes), takes the next seqs and the previous hash, hashes each record's RFC 8785 text as
-- GET /silo/v1/events shows it ("sig" between "seq" and "type" when it has one), inserts them and
-- moves the head once. Answers the last record's {chain, seq, hash} (the Silo-Event header). With
-- two roles the runtime policy makes every overload SECURITY DEFINER (lib/db/runtime-grants.ts):
-- the server's role writes chain_heads only through it.
CREATE OR REPLACE FUNCTION silo_append_events(p_ids uuid[], p_owner uuid, p_sandbox boolean,
    p_types text[], p_actor text, p_entry uuid, p_file uuid, p_versions integer[], p_datas text[],
    p_request_id text, p_sigs text[])
  RETURNS jsonb LANGUAGE plpgsql AS $$
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
    -- request_id, sandbox, seq, sig (when it has one), type, version.
    prev := encode(sha256(convert_to(
      '{"actor":' || p_actor || ',"at":"' || at_text || '","data":' || p_datas[i]
      || ',"entry_id":' || "silo_json_text"(p_entry::text) || ',"file_id":' || "silo_json_text"(p_file::text) || ',"id":"' || p_ids[i]::text
      || '","prev_hash":"' || prevs[i] || '","request_id":' || "silo_json_text"(p_request_id) || ',"sandbox":' || p_sandbox::text
      || ',"seq":' || seqs[i]::text || coalesce(',"sig":' || to_json(p_sigs[i])::text, '')
      || ',"type":' || "silo_json_text"(p_types[i]) || ',"version":' || coalesce(p_versions[i]::text, 'null') || '}',
      'UTF8')), 'hex');
    digests := digests || prev;
  END LOOP;
  INSERT INTO "events" ("id", "owner_id", "sandbox", "seq", "at", "type", "actor", "entry_id", "file_id", "version", "data",
      "request_id", "prev_hash", "hash", "sig")
    SELECT r.id, p_owner, p_sandbox, r.seq, at_ms, r.type, p_actor::jsonb, p_entry, p_file, r.version, r.data::jsonb,
      p_request_id, r.prev, r.digest, r.sig
    FROM unnest(p_ids, seqs, p_types, p_versions, p_datas, prevs, digests, p_sigs) AS r(id, seq, type, version, data, prev, digest, sig);
  UPDATE "chain_heads" SET "hash" = prev, "at" = at_ms WHERE "owner_id" = p_owner AND "sandbox" = p_sandbox;
  RETURN jsonb_build_object('chain', p_owner::text || CASE WHEN p_sandbox THEN '/sandbox' ELSE '/live' END, 'seq', head.seq, 'hash', prev);
END
$$;

-- Records, checkpoints and their time-stamps are never updated or deleted, whoever asks, except
-- by the cascade of a deleted workspace (its owner row already gone, its final heads kept in
-- deleted_chains by silo_keep_final_heads).
CREATE OR REPLACE FUNCTION silo_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "owners" WHERE "id" = OLD."owner_id")
      AND EXISTS (SELECT 1 FROM "deleted_chains" WHERE "owner_id" = OLD."owner_id" AND "sandbox" = OLD."sandbox") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the event log is append-only: % of % is refused', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
END
$$;
DROP TRIGGER IF EXISTS checkpoint_timestamps_append_only ON checkpoint_timestamps;
CREATE TRIGGER checkpoint_timestamps_append_only BEFORE DELETE OR UPDATE ON checkpoint_timestamps
  FOR EACH ROW
  EXECUTE FUNCTION silo_events_append_only();
ALTER TABLE checkpoint_timestamps ENABLE ALWAYS TRIGGER checkpoint_timestamps_append_only;
DROP TRIGGER IF EXISTS checkpoints_append_only ON checkpoints;
CREATE TRIGGER checkpoints_append_only BEFORE DELETE OR UPDATE ON checkpoints
  FOR EACH ROW
  EXECUTE FUNCTION silo_events_append_only();
ALTER TABLE checkpoints ENABLE ALWAYS TRIGGER checkpoints_append_only;
DROP TRIGGER IF EXISTS events_append_only ON events;
CREATE TRIGGER events_append_only BEFORE DELETE OR UPDATE ON events
  FOR EACH ROW
  EXECUTE FUNCTION silo_events_append_only();
ALTER TABLE events ENABLE ALWAYS TRIGGER events_append_only;

-- An append-only table refuses any UPDATE, DELETE or TRUNCATE (deleted_chains; TRUNCATE of the
-- log's tables).
CREATE OR REPLACE FUNCTION silo_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is refused', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
END
$$;
DROP TRIGGER IF EXISTS checkpoint_timestamps_no_truncate ON checkpoint_timestamps;
CREATE TRIGGER checkpoint_timestamps_no_truncate BEFORE TRUNCATE ON checkpoint_timestamps
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_refuse_change();
ALTER TABLE checkpoint_timestamps ENABLE ALWAYS TRIGGER checkpoint_timestamps_no_truncate;
DROP TRIGGER IF EXISTS checkpoints_no_truncate ON checkpoints;
CREATE TRIGGER checkpoints_no_truncate BEFORE TRUNCATE ON checkpoints
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_refuse_change();
ALTER TABLE checkpoints ENABLE ALWAYS TRIGGER checkpoints_no_truncate;
DROP TRIGGER IF EXISTS deleted_chains_append_only ON deleted_chains;
CREATE TRIGGER deleted_chains_append_only BEFORE DELETE OR UPDATE ON deleted_chains
  FOR EACH ROW
  EXECUTE FUNCTION silo_refuse_change();
ALTER TABLE deleted_chains ENABLE ALWAYS TRIGGER deleted_chains_append_only;
DROP TRIGGER IF EXISTS deleted_chains_no_truncate ON deleted_chains;
CREATE TRIGGER deleted_chains_no_truncate BEFORE TRUNCATE ON deleted_chains
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_refuse_change();
ALTER TABLE deleted_chains ENABLE ALWAYS TRIGGER deleted_chains_no_truncate;
DROP TRIGGER IF EXISTS events_no_truncate ON events;
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_refuse_change();
ALTER TABLE events ENABLE ALWAYS TRIGGER events_no_truncate;

-- A workspace's deletion first keeps each of its chains' final head and final record (its events
-- row) in deleted_chains: the chain's last word stays readable and its hash recomputable.
CREATE OR REPLACE FUNCTION silo_keep_final_heads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "deleted_chains" ("owner_id", "sandbox", "seq", "hash", "final_record")
    SELECT h."owner_id", h."sandbox", h."seq", h."hash",
      (SELECT to_jsonb(ev) FROM "events" ev WHERE ev."owner_id" = h."owner_id" AND ev."sandbox" = h."sandbox" AND ev."seq" = h."seq")
    FROM "chain_heads" h WHERE h."owner_id" = OLD."id"
    ON CONFLICT DO NOTHING;
  RETURN OLD;
END
$$;
DROP TRIGGER IF EXISTS owners_keep_final_heads ON owners;
CREATE TRIGGER owners_keep_final_heads BEFORE DELETE ON owners
  FOR EACH ROW
  EXECUTE FUNCTION silo_keep_final_heads();
ALTER TABLE owners ENABLE ALWAYS TRIGGER owners_keep_final_heads;

-- Every record after a chain's signed_from carries a signature: signed_from never moves (a moved
-- one would let unsigned records through), and a new chain is signed from 0.
CREATE OR REPLACE FUNCTION silo_chain_heads_signed_from() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW."signed_from" <> 0 THEN
    RAISE EXCEPTION 'a new chain head begins signed from 0, not %', NEW."signed_from" USING ERRCODE = '42501';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."signed_from" IS DISTINCT FROM OLD."signed_from" THEN
    RAISE EXCEPTION 'a chain head''s signed_from never changes' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS chain_heads_signed_from ON chain_heads;
CREATE TRIGGER chain_heads_signed_from BEFORE INSERT OR UPDATE OF signed_from ON chain_heads
  FOR EACH ROW
  EXECUTE FUNCTION silo_chain_heads_signed_from();
ALTER TABLE chain_heads ENABLE ALWAYS TRIGGER chain_heads_signed_from;
