-- Retention and legal holds in the database (docs/api.md, Retention). The API refuses first
-- (lib/silo/retention/: 409 retained, legal_hold); these refuse whoever else asks, psql included,
-- with SQLSTATE 42501 (recognised by lib/db/db-errors.ts, retentionRefusal). The guards fire ALWAYS:
-- a session in replica mode is refused too. Governance retention is the API's alone (an
-- administrator may override it); an expired date or a lifted hold guards nothing.

-- The date a rule gives a version stored at p_at: p_years and p_days after it, or after the end of
-- its calendar year, in UTC. Every step immutable, so PostgreSQL inlines it (the console's example
-- date computes the same: lib/console/retention-date.ts).
CREATE OR REPLACE FUNCTION silo_retention_date(p_from text, p_years integer, p_days integer,
    p_at timestamp with time zone)
  RETURNS timestamp with time zone LANGUAGE sql IMMUTABLE AS $$
  SELECT ((CASE WHEN p_from = 'end_of_year'
    THEN make_date(extract(year FROM p_at AT TIME ZONE 'UTC')::int + 1, 1, 1)::timestamp
    ELSE p_at AT TIME ZONE 'UTC' END) + make_interval(years => p_years, days => p_days)) AT TIME ZONE 'UTC'
$$;

-- Whether a rule narrowed to rule_folder covers an entry in folder: that folder or one below it
-- (sales covers sales/2026, not salesforce), as ?folder= lists them.
CREATE OR REPLACE FUNCTION silo_folder_covers(rule_folder text, folder text)
  RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT rule_folder IS NULL OR folder = rule_folder OR starts_with(folder, rule_folder || '/')
$$;

-- A version's retention, set as it becomes stored (an inline create's INSERT, a placeholder's or a
-- restore's UPDATE), so every path gets it: the latest date its matching rules give, never earlier
-- than its create asked, compliance when any rule is. It copies the entry's hold, and on an INSERT
-- the entry's workspace, environment and time. The entry is read FOR KEY SHARE: a hold being set
-- (the entry locked FOR UPDATE after its slots) is waited for and seen.
CREATE OR REPLACE FUNCTION silo_version_retention() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  e RECORD;
  r RECORD;
BEGIN
  -- KEY SHARE waits for a legal hold being set (which locks the entry FOR UPDATE) and then reads it.
  SELECT x."owner_id", x."sandbox", x."created_at", x."folder", x."legal_hold" INTO e
    FROM "entries" x WHERE x."id" = NEW."entry_id" FOR KEY SHARE;
  IF TG_OP = 'INSERT' THEN
    -- what files_workspace sets on an UPDATE that moves the version (NULL without an entry: refused)
    NEW."owner_id" := e."owner_id";
    NEW."sandbox" := e."sandbox";
    NEW."entry_created_at" := e."created_at";
  END IF;
  IF NOT FOUND THEN RETURN NEW; END IF; -- the foreign key refuses the row
  NEW."legal_hold" := e."legal_hold";
  IF NOT NEW."stored" OR (TG_OP = 'UPDATE' AND OLD."stored") THEN RETURN NEW; END IF;
  SELECT max("silo_retention_date"(rr."from", rr."years", rr."days", coalesce(NEW."stored_at", now()))) AS until,
         bool_or(rr."mode" = 'compliance') AS compliance
    INTO r
    FROM "retention_rules" rr
    WHERE rr."owner_id" = e."owner_id" AND rr."sandbox" = e."sandbox"
      AND (rr."category" IS NULL OR rr."category" = NEW."category") AND "silo_folder_covers"(rr."folder", e."folder");
  IF r.until IS NOT NULL THEN
    NEW."retain_until" := greatest(NEW."retain_until", r.until);
    NEW."retention_mode" := CASE WHEN r.compliance OR NEW."retention_mode" = 'compliance' THEN 'compliance' ELSE 'governance' END;
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS version_retention ON files;
CREATE TRIGGER version_retention BEFORE INSERT OR UPDATE OF stored ON files
  FOR EACH ROW
  EXECUTE FUNCTION silo_version_retention();

-- A stored version under compliance retention is not deleted (nor its entry or workspace, whose
-- cascades reach it), and no UPDATE shortens its date, turns it into governance, or changes its
-- bytes, entry, workspace or environment.
CREATE OR REPLACE FUNCTION silo_compliance_retained() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS compliance_retained ON files;
CREATE TRIGGER compliance_retained BEFORE DELETE OR UPDATE ON files
  FOR EACH ROW WHEN (old.stored AND old.retention_mode = 'compliance'::text
      AND old.retain_until > now())
  EXECUTE FUNCTION silo_compliance_retained();
ALTER TABLE files ENABLE ALWAYS TRIGGER compliance_retained;

-- TRUNCATE passes row triggers by: refused while any compliance date has not passed.
CREATE OR REPLACE FUNCTION silo_compliance_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "files" WHERE "stored" AND "retention_mode" = 'compliance' AND "retain_until" > now()) THEN
    RAISE EXCEPTION 'files holds versions under compliance retention: TRUNCATE is refused' USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS compliance_no_truncate ON files;
CREATE TRIGGER compliance_no_truncate BEFORE TRUNCATE ON files
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_compliance_truncate();
ALTER TABLE files ENABLE ALWAYS TRIGGER compliance_no_truncate;

-- An entry under a legal hold is not deleted, nor so its workspace, whose cascade reaches it.
-- Lifting the hold stays an ordinary UPDATE (PUT …/legal-hold).
CREATE OR REPLACE FUNCTION silo_legal_hold_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'entry % is under a legal hold: DELETE is refused', OLD."id" USING ERRCODE = '42501';
END
$$;
DROP TRIGGER IF EXISTS legal_hold_entry ON entries;
CREATE TRIGGER legal_hold_entry BEFORE DELETE ON entries
  FOR EACH ROW WHEN (old.legal_hold)
  EXECUTE FUNCTION silo_legal_hold_entry();
ALTER TABLE entries ENABLE ALWAYS TRIGGER legal_hold_entry;

-- No row of files in a held entry is deleted: the entry's hold decides (files.legal_hold is a copy
-- for the record). In a cascade from entries the entry's own trigger has refused first.
CREATE OR REPLACE FUNCTION silo_legal_hold_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "entries" WHERE "id" = OLD."entry_id" AND "legal_hold") THEN
    RAISE EXCEPTION 'version % is in entry % under a legal hold: DELETE is refused', OLD."id", OLD."entry_id" USING ERRCODE = '42501';
  END IF;
  RETURN OLD;
END
$$;
DROP TRIGGER IF EXISTS legal_hold_file ON files;
CREATE TRIGGER legal_hold_file BEFORE DELETE ON files
  FOR EACH ROW
  EXECUTE FUNCTION silo_legal_hold_file();
ALTER TABLE files ENABLE ALWAYS TRIGGER legal_hold_file;

-- TRUNCATE of entries or files is refused while any entry is held.
CREATE OR REPLACE FUNCTION silo_legal_hold_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "entries" WHERE "legal_hold") THEN
    RAISE EXCEPTION '% holds rows under a legal hold: TRUNCATE is refused', TG_TABLE_NAME USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS legal_hold_no_truncate ON entries;
CREATE TRIGGER legal_hold_no_truncate BEFORE TRUNCATE ON entries
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_legal_hold_truncate();
ALTER TABLE entries ENABLE ALWAYS TRIGGER legal_hold_no_truncate;
DROP TRIGGER IF EXISTS legal_hold_no_truncate ON files;
CREATE TRIGGER legal_hold_no_truncate BEFORE TRUNCATE ON files
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_legal_hold_truncate();
ALTER TABLE files ENABLE ALWAYS TRIGGER legal_hold_no_truncate;

-- A version in a held entry keeps its bytes, its entry, workspace and environment, as compliance
-- keeps them (its other columns stay an ordinary UPDATE). Named to fire before files_workspace,
-- which would otherwise quietly set the copies back in origin mode.
CREATE OR REPLACE FUNCTION silo_legal_hold_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "entries" WHERE "id" = OLD."entry_id" AND "legal_hold") THEN
    RAISE EXCEPTION 'version % is in entry % under a legal hold: this UPDATE is refused', OLD."id", OLD."entry_id"
      USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS files_legal_hold_version ON files;
CREATE TRIGGER files_legal_hold_version BEFORE UPDATE ON files
  FOR EACH ROW WHEN (old.stored AND (new.hash IS DISTINCT FROM old.hash
      OR new.size IS DISTINCT FROM old.size OR NOT new.stored
      OR new.entry_id IS DISTINCT FROM old.entry_id OR new.owner_id IS DISTINCT FROM old.owner_id
      OR new.sandbox IS DISTINCT FROM old.sandbox))
  EXECUTE FUNCTION silo_legal_hold_version();
ALTER TABLE files ENABLE ALWAYS TRIGGER files_legal_hold_version;

-- An entry holding a held or compliance-retained version stays in its workspace and environment:
-- moved, its versions would leave their workspace's listings, exports and event chain.
CREATE OR REPLACE FUNCTION silo_entry_stays() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS entry_stays ON entries;
CREATE TRIGGER entry_stays BEFORE UPDATE OF owner_id, sandbox ON entries
  FOR EACH ROW WHEN (old.owner_id IS DISTINCT FROM new.owner_id
      OR old.sandbox IS DISTINCT FROM new.sandbox)
  EXECUTE FUNCTION silo_entry_stays();
ALTER TABLE entries ENABLE ALWAYS TRIGGER entry_stays;

-- Why blob p_hash may not change or go: the first held or compliance-retained stored version that
-- points at it, or NULL (files(hash) is indexed).
CREATE OR REPLACE FUNCTION silo_blob_guarded(p_hash text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN e."legal_hold" THEN format('version %s in entry %s under a legal hold', f."id", f."entry_id")
    ELSE format('version %s under compliance retention until %s', f."id", f."retain_until") END
  FROM "files" f JOIN "entries" e ON e."id" = f."entry_id"
  WHERE f."hash" = p_hash AND f."stored"
    AND (e."legal_hold" OR (f."retention_mode" = 'compliance' AND f."retain_until" > now()))
  LIMIT 1
$$;

-- The bytes a guarded version points at are neither deleted nor changed (data, size or name),
-- unless the write puts back bytes that hash to their name: the same-bytes upsert of every
-- deduplicated inline write (lib/storage/database-store.ts, keepBytesSql), which the trigger's WHEN
-- lets by with a comparison and no call. A new blob's INSERT fires none of these triggers.
CREATE OR REPLACE FUNCTION silo_blob_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS blob_guard_delete ON blobs;
CREATE TRIGGER blob_guard_delete BEFORE DELETE ON blobs
  FOR EACH ROW
  EXECUTE FUNCTION silo_blob_guard();
ALTER TABLE blobs ENABLE ALWAYS TRIGGER blob_guard_delete;
DROP TRIGGER IF EXISTS blob_guard_update ON blobs;
CREATE TRIGGER blob_guard_update BEFORE UPDATE ON blobs
  FOR EACH ROW WHEN (old.data IS DISTINCT FROM new.data OR old.hash <> new.hash OR old.size <> new.size)
  EXECUTE FUNCTION silo_blob_guard();
ALTER TABLE blobs ENABLE ALWAYS TRIGGER blob_guard_update;

-- TRUNCATE of blobs is refused while any guarded version exists.
CREATE OR REPLACE FUNCTION silo_blob_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS blob_guard_truncate ON blobs;
CREATE TRIGGER blob_guard_truncate BEFORE TRUNCATE ON blobs
  FOR EACH STATEMENT
  EXECUTE FUNCTION silo_blob_truncate();
ALTER TABLE blobs ENABLE ALWAYS TRIGGER blob_guard_truncate;
