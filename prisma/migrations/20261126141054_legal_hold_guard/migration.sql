-- Legal hold, in the database (docs/api.md, Retention): while an entry is held, no DELETE of it or
-- of any of its rows in files (a version, an earlier version, a placeholder), and so no delete of
-- its workspace, whose cascade reaches it — whoever sends it, psql included. ALWAYS: a session in
-- replica mode is refused too. Lifting the hold stays an ordinary UPDATE of entries.legal_hold
-- (PUT …/legal-hold, recorded as legal_hold.cleared). The API refuses first (409 legal_hold,
-- lib/silo/retention/delete-guard.ts); SQLSTATE 42501 with this message's "under a legal hold" is
-- what lib/db/db-errors.ts recognises should the seatbelt fire.
CREATE FUNCTION "silo_legal_hold_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'entry % is under a legal hold: DELETE is refused', OLD."id" USING ERRCODE = '42501';
END
$$;
CREATE TRIGGER "legal_hold_entry" BEFORE DELETE ON "entries"
  FOR EACH ROW WHEN (OLD."legal_hold") EXECUTE FUNCTION "silo_legal_hold_entry"();
ALTER TABLE "entries" ENABLE ALWAYS TRIGGER "legal_hold_entry";

-- A row of files: its entry's hold decides (files.legal_hold is a copy for the record, and may be
-- lifted with it). In a cascade from entries the entry's row is already gone, its own trigger having
-- refused first when it was held.
CREATE FUNCTION "silo_legal_hold_file"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "entries" WHERE "id" = OLD."entry_id" AND "legal_hold") THEN
    RAISE EXCEPTION 'version % is in entry % under a legal hold: DELETE is refused', OLD."id", OLD."entry_id" USING ERRCODE = '42501';
  END IF;
  RETURN OLD;
END
$$;
CREATE TRIGGER "legal_hold_file" BEFORE DELETE ON "files" FOR EACH ROW EXECUTE FUNCTION "silo_legal_hold_file"();
ALTER TABLE "files" ENABLE ALWAYS TRIGGER "legal_hold_file";

-- TRUNCATE passes row triggers by: refused on either table while any entry is held.
CREATE FUNCTION "silo_legal_hold_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "entries" WHERE "legal_hold") THEN
    RAISE EXCEPTION '% holds rows under a legal hold: TRUNCATE is refused', TG_TABLE_NAME USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "legal_hold_no_truncate" BEFORE TRUNCATE ON "entries" FOR EACH STATEMENT EXECUTE FUNCTION "silo_legal_hold_truncate"();
CREATE TRIGGER "legal_hold_no_truncate" BEFORE TRUNCATE ON "files" FOR EACH STATEMENT EXECUTE FUNCTION "silo_legal_hold_truncate"();
ALTER TABLE "entries" ENABLE ALWAYS TRIGGER "legal_hold_no_truncate";
ALTER TABLE "files" ENABLE ALWAYS TRIGGER "legal_hold_no_truncate";
