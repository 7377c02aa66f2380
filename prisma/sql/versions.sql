-- What the database keeps on the rows of versions and slots: a version's copies of its entry's
-- workspace, environment and time (what the entry list filters and orders versions by), and a
-- slot's revision (what dates its cached history).

-- A version's owner_id, sandbox and entry_created_at are its entry's, set again whenever a write
-- would make them differ (a version moved to another entry, a direct write of one of them: the API
-- does none of these; SQL might). An INSERT's are set by silo_version_retention (retention.sql).
CREATE OR REPLACE FUNCTION files_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT e."owner_id", e."sandbox", e."created_at" INTO NEW."owner_id", NEW."sandbox", NEW."entry_created_at"
    FROM "entries" e WHERE e."id" = NEW."entry_id";
  RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS files_workspace ON files;
CREATE TRIGGER files_workspace BEFORE UPDATE OF entry_id, owner_id, sandbox, entry_created_at ON files
  FOR EACH ROW
  EXECUTE FUNCTION files_workspace();

-- An entry moved to another workspace or environment, or its time changed, takes its versions'
-- copies along.
CREATE OR REPLACE FUNCTION entries_files_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "files" SET "owner_id" = NEW."owner_id", "sandbox" = NEW."sandbox", "entry_created_at" = NEW."created_at"
    WHERE "entry_id" = NEW."id";
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entries_files_workspace ON entries;
CREATE TRIGGER entries_files_workspace AFTER UPDATE OF owner_id, sandbox, created_at ON entries
  FOR EACH ROW WHEN (old.owner_id IS DISTINCT FROM new.owner_id
      OR old.sandbox IS DISTINCT FROM new.sandbox OR old.created_at IS DISTINCT FROM new.created_at)
  EXECUTE FUNCTION entries_files_workspace();

-- An update or delete of stored versions bumps their slots' rev, once per slot and statement: with
-- seq (bumped by a new version), it dates the slot's history (lib/silo/files/slot-history.ts).
CREATE OR REPLACE FUNCTION bump_slot_rev() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "file_slots" SET "rev" = "rev" + 1 WHERE "id" IN (SELECT "slot_id" FROM "changed_files" WHERE "stored");
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS slot_history_deleted ON files;
CREATE TRIGGER slot_history_deleted AFTER DELETE ON files
  REFERENCING OLD TABLE AS changed_files FOR EACH STATEMENT
  EXECUTE FUNCTION bump_slot_rev();
DROP TRIGGER IF EXISTS slot_history_updated ON files;
CREATE TRIGGER slot_history_updated AFTER UPDATE ON files
  REFERENCING OLD TABLE AS changed_files FOR EACH STATEMENT
  EXECUTE FUNCTION bump_slot_rev();
