-- AlterTable
ALTER TABLE "file_slots" ADD COLUMN     "rev" BIGINT NOT NULL DEFAULT 0;

-- A slot's history (the stored versions a file's `previous` lists) changes in two ways: a new
-- stored version, which bumps seq (replace-file.ts), and an update or delete of a stored version
-- (PATCH of its desc, DELETE of an earlier version), which bumps rev here. A history read with the
-- slot's seq and rev in one statement stays true while both do (lib/silo/files/history-cache.ts).
-- Statement triggers with the changed rows: one bump per slot and statement, however many rows
-- (a file deleted with its 5,000 versions is one update of its slot, not 5,000).
CREATE FUNCTION "bump_slot_rev"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "file_slots" SET "rev" = "rev" + 1 WHERE "id" IN (SELECT "slot_id" FROM "changed_files" WHERE "stored");
  RETURN NULL;
END
$$;

CREATE TRIGGER "slot_history_updated" AFTER UPDATE ON "files"
  REFERENCING OLD TABLE AS "changed_files" FOR EACH STATEMENT EXECUTE FUNCTION "bump_slot_rev"();
CREATE TRIGGER "slot_history_deleted" AFTER DELETE ON "files"
  REFERENCING OLD TABLE AS "changed_files" FOR EACH STATEMENT EXECUTE FUNCTION "bump_slot_rev"();
