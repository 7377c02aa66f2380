-- Bytes under the same guard as their versions (docs/api.md, Retention; SECURITY.md). The triggers
-- on files (migrations retention, legal_hold_guard) keep a compliance-retained or held version's
-- row; these keep what it points at and where it is listed, whoever sends the statement, psql
-- included, and in replica mode too (ENABLE ALWAYS). SQLSTATE 42501, with the wording
-- lib/db/db-errors.ts recognises (" under compliance retention until ", " under a legal hold: ").
--
-- Guarded, as the files triggers guard them: a stored version under compliance retention whose
-- date has not passed, and every stored version of an entry under a legal hold (the entry's column
-- decides, as for a DELETE). Governance retention is the API's to enforce: an administrator may
-- override it (X-Silo-Bypass-Governance-Retention), the database refuses nothing for it, neither
-- the version's row nor its bytes (a version's row may be pointed elsewhere by SQL anyway; fsck
-- names what changed). An expired date or a lifted hold guards nothing.

-- Why blob `p_hash` may not change or go: the first guarded version that points at it, or NULL.
-- files(hash) is indexed; the free paths ask only after finding no stored version at all.
CREATE FUNCTION "silo_blob_guarded"(p_hash TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN e."legal_hold" THEN format('version %s in entry %s under a legal hold', f."id", f."entry_id")
    ELSE format('version %s under compliance retention until %s', f."id", f."retain_until") END
  FROM "files" f JOIN "entries" e ON e."id" = f."entry_id"
  WHERE f."hash" = p_hash AND f."stored"
    AND (e."legal_hold" OR (f."retention_mode" = 'compliance' AND f."retain_until" > now()))
  LIMIT 1
$$;

-- blobs: no DELETE of a guarded blob's row, and no UPDATE that changes its name, size or bytes,
-- unless it writes bytes that hash to its name (what an inline write of the same bytes does:
-- INSERT … ON CONFLICT DO UPDATE SET data = EXCLUDED.data, replace-file.ts and database-store.ts,
-- into a row that held them or held none; it also mends bytes changed behind the guard). The
-- trigger's WHEN compares the row before the function is called: a write of the same bytes, the
-- one of every deduplicated inline file, costs a comparison of the bytes and no call (measured on
-- PostgreSQL, medians of 6 × 1,000 such upserts: 4 KiB the same with the trigger as without, 64 KiB
-- of incompressible bytes ~6 % more, the stored copy being read back to compare). A new blob's
-- INSERT, the write of every new inline file, fires none of these triggers.
CREATE FUNCTION "silo_blob_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  why TEXT;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."hash" = OLD."hash" AND NEW."size" = OLD."size" AND NEW."data" IS NOT NULL
      AND octet_length(NEW."data") = NEW."size" AND encode(sha256(NEW."data"), 'hex') = NEW."hash" THEN
    RETURN NEW;
  END IF;
  why := "silo_blob_guarded"(OLD."hash");
  IF why IS NULL AND TG_OP = 'UPDATE' AND NEW."hash" <> OLD."hash" THEN
    why := "silo_blob_guarded"(NEW."hash");
  END IF;
  IF why IS NOT NULL THEN
    RAISE EXCEPTION 'blob % holds the bytes of %: % is refused', OLD."hash", why, TG_OP USING ERRCODE = '42501';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "blob_guard_update" BEFORE UPDATE ON "blobs" FOR EACH ROW
  WHEN (OLD."data" IS DISTINCT FROM NEW."data" OR OLD."hash" <> NEW."hash" OR OLD."size" <> NEW."size")
  EXECUTE FUNCTION "silo_blob_guard"();
ALTER TABLE "blobs" ENABLE ALWAYS TRIGGER "blob_guard_update";
CREATE TRIGGER "blob_guard_delete" BEFORE DELETE ON "blobs" FOR EACH ROW EXECUTE FUNCTION "silo_blob_guard"();
ALTER TABLE "blobs" ENABLE ALWAYS TRIGGER "blob_guard_delete";

-- TRUNCATE passes row triggers by: refused while any guarded version exists.
CREATE FUNCTION "silo_blob_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  why TEXT;
BEGIN
  SELECT CASE WHEN e."legal_hold" THEN format('version %s in entry %s under a legal hold', f."id", f."entry_id")
    ELSE format('version %s under compliance retention until %s', f."id", f."retain_until") END
    INTO why
    FROM "files" f JOIN "entries" e ON e."id" = f."entry_id"
    WHERE f."stored" AND (e."legal_hold" OR (f."retention_mode" = 'compliance' AND f."retain_until" > now()))
    LIMIT 1;
  IF why IS NOT NULL THEN
    RAISE EXCEPTION 'blobs holds the bytes of %: TRUNCATE is refused', why USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "blob_guard_truncate" BEFORE TRUNCATE ON "blobs" FOR EACH STATEMENT EXECUTE FUNCTION "silo_blob_truncate"();
ALTER TABLE "blobs" ENABLE ALWAYS TRIGGER "blob_guard_truncate";

-- entries: an entry holding a guarded version stays in its workspace and environment. Moved, its
-- versions would leave their workspace's listings, exports and event chain (the API never moves one).
CREATE FUNCTION "silo_entry_stays"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v RECORD;
BEGIN
  IF OLD."legal_hold" THEN
    RAISE EXCEPTION 'entry % is under a legal hold: moving it to another workspace or environment is refused', OLD."id"
      USING ERRCODE = '42501';
  END IF;
  SELECT f."id", f."retain_until" INTO v FROM "files" f
    WHERE f."entry_id" = OLD."id" AND f."stored" AND f."retention_mode" = 'compliance' AND f."retain_until" > now() LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'entry % holds version % under compliance retention until %: moving it to another workspace or environment is refused',
      OLD."id", v."id", v."retain_until" USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "entry_stays" BEFORE UPDATE OF "owner_id", "sandbox" ON "entries" FOR EACH ROW
  WHEN (OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."sandbox" IS DISTINCT FROM NEW."sandbox")
  EXECUTE FUNCTION "silo_entry_stays"();
ALTER TABLE "entries" ENABLE ALWAYS TRIGGER "entry_stays";

-- files: a compliance-retained version's copies of its workspace and environment may not change
-- either (files_workspace resets them from the entry, but not in replica mode).
CREATE OR REPLACE FUNCTION "silo_compliance_retained"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'version % is under compliance retention until %: DELETE is refused', OLD."id", OLD."retain_until"
      USING ERRCODE = '42501';
  END IF;
  IF NEW."retain_until" IS NULL OR NEW."retain_until" < OLD."retain_until" OR NEW."retention_mode" IS DISTINCT FROM 'compliance'
      OR NEW."hash" <> OLD."hash" OR NEW."size" <> OLD."size" OR NOT NEW."stored" OR NEW."entry_id" <> OLD."entry_id"
      OR NEW."owner_id" IS DISTINCT FROM OLD."owner_id" OR NEW."sandbox" IS DISTINCT FROM OLD."sandbox" THEN
    RAISE EXCEPTION 'version % is under compliance retention until %: this UPDATE is refused', OLD."id", OLD."retain_until"
      USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;

-- files: a held version keeps its bytes, its entry and its workspace as compliance keeps them (its
-- other columns, the hold's copy included, stay an ordinary UPDATE). Named to fire before
-- files_workspace, which would otherwise quietly set the copies back in origin mode.
CREATE FUNCTION "silo_legal_hold_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "entries" WHERE "id" = OLD."entry_id" AND "legal_hold") THEN
    RAISE EXCEPTION 'version % is in entry % under a legal hold: this UPDATE is refused', OLD."id", OLD."entry_id"
      USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "files_legal_hold_version" BEFORE UPDATE ON "files" FOR EACH ROW
  WHEN (OLD."stored" AND (NEW."hash" IS DISTINCT FROM OLD."hash" OR NEW."size" IS DISTINCT FROM OLD."size"
    OR NOT NEW."stored" OR NEW."entry_id" IS DISTINCT FROM OLD."entry_id"
    OR NEW."owner_id" IS DISTINCT FROM OLD."owner_id" OR NEW."sandbox" IS DISTINCT FROM OLD."sandbox"))
  EXECUTE FUNCTION "silo_legal_hold_version"();
ALTER TABLE "files" ENABLE ALWAYS TRIGGER "files_legal_hold_version";
