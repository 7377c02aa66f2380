-- What ?q= searches (entry_search, under a trigram index): an entry's name and key, the name of each
-- slot's current version, each placeholder's name. Written by the statement that writes its source:
-- statement triggers over the transition tables for inserts and deletes (a bulk insert in one pass),
-- row triggers only when a searched column changes. Each looks what it needs up by primary key, so
-- no plan can scan a table; an entry's delete takes its rows by the foreign key's cascade.

-- Upserts a row without rewriting one that did not change (each rewrite is a GIN update).
CREATE OR REPLACE FUNCTION entry_search_put(source_ uuid, field_ text, entry_ uuid, text_ text)
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text") VALUES (source_, field_, entry_, text_)
  ON CONFLICT ("source_id", "field") DO UPDATE SET "entry_id" = EXCLUDED."entry_id", "text" = EXCLUDED."text"
    WHERE ("entry_search"."entry_id", "entry_search"."text") IS DISTINCT FROM (EXCLUDED."entry_id", EXCLUDED."text")
$$;

-- New entries' name and key rows.
CREATE OR REPLACE FUNCTION entry_search_entries_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
    SELECT "id", 'name', "id", "name" FROM new_rows
    UNION ALL SELECT "id", 'key', "id", "key" FROM new_rows WHERE "key" IS NOT NULL
  ON CONFLICT ("source_id", "field") DO UPDATE SET "text" = EXCLUDED."text";
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_insert ON entries;
CREATE TRIGGER entry_search_insert AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION entry_search_entries_inserted();

-- An entry renamed or re-keyed: its rows follow (a key removed takes its row).
CREATE OR REPLACE FUNCTION entry_search_entry_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_put"(NEW."id", 'name', NEW."id", NEW."name");
  IF NEW."key" IS NULL THEN
    DELETE FROM "entry_search" WHERE "source_id" = NEW."id" AND "field" = 'key';
  ELSE
    PERFORM "entry_search_put"(NEW."id", 'key', NEW."id", NEW."key");
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_update ON entries;
CREATE TRIGGER entry_search_update AFTER UPDATE OF name, key ON entries
  FOR EACH ROW WHEN (old.name IS DISTINCT FROM new.name OR old.key IS DISTINCT FROM new.key)
  EXECUTE FUNCTION entry_search_entry_updated();

-- A slot's row: the name of the version it names now, or none (no version yet, or not inserted
-- yet).
CREATE OR REPLACE FUNCTION entry_search_slot(slot_ uuid, current_ uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  entry_ UUID;
  name_ TEXT;
BEGIN
  SELECT m."entry_id", m."name" INTO entry_, name_ FROM "files" m WHERE m."id" = current_;
  IF FOUND THEN
    PERFORM "entry_search_put"(slot_, 'version', entry_, name_);
  ELSE
    DELETE FROM "entry_search" WHERE "source_id" = slot_ AND "field" = 'version';
  END IF;
END
$$;

-- New slots' rows, from the versions they name.
CREATE OR REPLACE FUNCTION entry_search_slots_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
    SELECT n."id", 'version', m."entry_id", m."name"
    FROM new_rows n CROSS JOIN LATERAL (SELECT m."entry_id", m."name" FROM "files" m WHERE m."id" = n."current_id" OFFSET 0) m
  ON CONFLICT ("source_id", "field") DO UPDATE SET "entry_id" = EXCLUDED."entry_id", "text" = EXCLUDED."text";
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_slots_insert ON file_slots;
CREATE TRIGGER entry_search_slots_insert AFTER INSERT ON file_slots
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION entry_search_slots_inserted();

-- A slot pointed at another version: its row names that one.
CREATE OR REPLACE FUNCTION entry_search_slot_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_slot"(NEW."id", NEW."current_id");
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_slots_update ON file_slots;
CREATE TRIGGER entry_search_slots_update AFTER UPDATE OF current_id ON file_slots
  FOR EACH ROW WHEN (old.current_id IS DISTINCT FROM new.current_id)
  EXECUTE FUNCTION entry_search_slot_updated();

-- Deleted slots take their rows.
CREATE OR REPLACE FUNCTION entry_search_slots_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "entry_search" WHERE "field" = 'version' AND "source_id" = ANY(ARRAY(SELECT "id" FROM old_rows));
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_slots_delete ON file_slots;
CREATE TRIGGER entry_search_slots_delete AFTER DELETE ON file_slots
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION entry_search_slots_deleted();

-- A new placeholder's row; a new version's, when its slot already names it (the slot inserted
-- first).
CREATE OR REPLACE FUNCTION entry_search_files_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
    SELECT "id", 'placeholder', "entry_id", "name" FROM new_rows WHERE NOT "stored"
  ON CONFLICT ("source_id", "field") DO UPDATE SET "entry_id" = EXCLUDED."entry_id", "text" = EXCLUDED."text";
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
    SELECT n."slot_id", 'version', n."entry_id", n."name" FROM new_rows n
    WHERE (SELECT ms."current_id" FROM "file_slots" ms WHERE ms."id" = n."slot_id") = n."id"
  ON CONFLICT ("source_id", "field") DO UPDATE SET "entry_id" = EXCLUDED."entry_id", "text" = EXCLUDED."text"
    WHERE ("entry_search"."entry_id", "entry_search"."text") IS DISTINCT FROM (EXCLUDED."entry_id", EXCLUDED."text");
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_files_insert ON files;
CREATE TRIGGER entry_search_files_insert AFTER INSERT ON files
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION entry_search_files_inserted();

-- A file renamed, stored or moved: a placeholder's row until it is stored, and its slot's row when
-- the slot names it.
CREATE OR REPLACE FUNCTION entry_search_file_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."stored" THEN
    DELETE FROM "entry_search" WHERE "source_id" = NEW."id" AND "field" = 'placeholder';
  ELSE
    PERFORM "entry_search_put"(NEW."id", 'placeholder', NEW."entry_id", NEW."name");
  END IF;
  IF EXISTS (SELECT 1 FROM "file_slots" WHERE "id" = NEW."slot_id" AND "current_id" = NEW."id") THEN
    PERFORM "entry_search_put"(NEW."slot_id", 'version', NEW."entry_id", NEW."name");
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_files_update ON files;
CREATE TRIGGER entry_search_files_update AFTER UPDATE OF name, stored, entry_id ON files
  FOR EACH ROW WHEN (old.name IS DISTINCT FROM new.name OR old.stored IS DISTINCT FROM new.stored
      OR old.entry_id IS DISTINCT FROM new.entry_id)
  EXECUTE FUNCTION entry_search_file_updated();

-- A deleted file takes its placeholder row, and the row of a slot that still names it.
CREATE OR REPLACE FUNCTION entry_search_files_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "entry_search" WHERE "field" = 'placeholder' AND "source_id" = ANY(ARRAY(SELECT "id" FROM old_rows WHERE NOT "stored"));
  DELETE FROM "entry_search" WHERE "field" = 'version' AND "source_id" = ANY(ARRAY(
    SELECT o."slot_id" FROM old_rows o WHERE (SELECT ms."current_id" FROM "file_slots" ms WHERE ms."id" = o."slot_id") = o."id"));
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entry_search_files_delete ON files;
CREATE TRIGGER entry_search_files_delete AFTER DELETE ON files
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION entry_search_files_deleted();
