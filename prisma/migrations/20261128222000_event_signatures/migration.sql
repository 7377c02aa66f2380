-- Each record the server writes carries `sig`: the audit key's Ed25519 signature over the RFC 8785
-- JSON of {actor, id, request_id, type}, made in Node before the statement (lib/events/append-event.ts).
-- Someone who can run SQL but has not the key cannot make one, so a record appended through SQL is
-- named by verify (docs/api.md, Events; SECURITY.md, the event log's threat model).
ALTER TABLE "events" ADD COLUMN "sig" TEXT;

-- Records written before signatures have none: every record after a chain's signed_from must have
-- one. The existing chains start signing after their present head; a chain begun later from 0.
ALTER TABLE "chain_heads" ADD COLUMN "signed_from" BIGINT NOT NULL DEFAULT 0;
UPDATE "chain_heads" SET "signed_from" = "seq";

-- signed_from never moves (a moved one would let unsigned records through) and a new head begins
-- at 0. ALWAYS: replica mode is refused too.
CREATE FUNCTION "silo_chain_heads_signed_from"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "chain_heads_signed_from" BEFORE INSERT OR UPDATE OF "signed_from" ON "chain_heads" FOR EACH ROW EXECUTE FUNCTION "silo_chain_heads_signed_from"();
ALTER TABLE "chain_heads" ENABLE ALWAYS TRIGGER "chain_heads_signed_from";

-- As in migration event_log, with one signature per record (p_sigs, null for none): a record with
-- a sig has "sig" in its hashed text, between "seq" and "type" as RFC 8785 orders keys; one
-- without keeps the text it had. Answers the last record's chain, seq and hash ({chain, seq,
-- hash}), what a write's answer names in its Silo-Event header (lib/events/witness.ts).
DROP FUNCTION "silo_append_events"(UUID[], UUID, BOOLEAN, TEXT[], TEXT, UUID, UUID, INTEGER[], TEXT[], TEXT);
CREATE FUNCTION "silo_append_events"(
  p_ids UUID[], p_owner UUID, p_sandbox BOOLEAN, p_types TEXT[], p_actor TEXT, p_entry UUID, p_file UUID,
  p_versions INTEGER[], p_datas TEXT[], p_request_id TEXT, p_sigs TEXT[]
) RETURNS JSONB LANGUAGE plpgsql AS $$
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
