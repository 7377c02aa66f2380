-- A workspace's storage used, by environment (owner_usage: entries, stored versions and their bytes;
-- GET /admin/v1/owners sums a workspace's rows), kept by the statements that write entries and files.
-- A writer adds to a row of its workspace and environment that no other transaction holds, or to a
-- new one, so no writer ever waits on another: a row alone may be negative, the sum is the usage.

-- Adds the deltas to a row of (owner_, sandbox_) no other transaction holds (FOR UPDATE SKIP
-- LOCKED), else to a new row.
CREATE OR REPLACE FUNCTION owner_usage_add(owner_ uuid, sandbox_ boolean, entries_ bigint,
    files_ bigint, bytes_ bigint)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF entries_ = 0 AND files_ = 0 AND bytes_ = 0 THEN
    RETURN;
  END IF;
  UPDATE "owner_usage" u SET "entries" = u."entries" + entries_, "files" = u."files" + files_, "bytes" = u."bytes" + bytes_
    WHERE u."owner_id" = owner_ AND u."sandbox" = sandbox_ AND u."shard" = (
      SELECT f."shard" FROM "owner_usage" f WHERE f."owner_id" = owner_ AND f."sandbox" = sandbox_
      ORDER BY f."shard" LIMIT 1 FOR UPDATE SKIP LOCKED);
  IF NOT FOUND THEN
    INSERT INTO "owner_usage" ("owner_id", "sandbox", "entries", "files", "bytes")
      SELECT owner_, sandbox_, entries_, files_, bytes_ WHERE EXISTS (SELECT 1 FROM "owners" o WHERE o."id" = owner_);
  END IF;
END
$$;

-- Entries inserted: one call per workspace and environment the statement wrote.
CREATE OR REPLACE FUNCTION owner_usage_entries_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", g.n, 0, 0)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_insert ON entries;
CREATE TRIGGER owner_usage_insert AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION owner_usage_entries_inserted();

-- Entries deleted: one call per workspace and environment the statement wrote.
CREATE OR REPLACE FUNCTION owner_usage_entries_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", -g.n, 0, 0)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_delete ON entries;
CREATE TRIGGER owner_usage_delete AFTER DELETE ON entries
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION owner_usage_entries_deleted();

-- An entry moved to another workspace or environment (the API never does; SQL might).
CREATE OR REPLACE FUNCTION owner_usage_entry_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(OLD."owner_id", OLD."sandbox", -1, 0, 0);
  PERFORM "owner_usage_add"(NEW."owner_id", NEW."sandbox", 1, 0, 0);
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_move ON entries;
CREATE TRIGGER owner_usage_move AFTER UPDATE OF owner_id, sandbox ON entries
  FOR EACH ROW WHEN (old.owner_id IS DISTINCT FROM new.owner_id
      OR old.sandbox IS DISTINCT FROM new.sandbox)
  EXECUTE FUNCTION owner_usage_entry_moved();

-- Versions inserted: only stored ones count (a placeholder once its bytes are in). files.owner_id
-- and sandbox are the entry's (versions.sql), so a moved entry's versions move with it here.
CREATE OR REPLACE FUNCTION owner_usage_files_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", 0, g.n, g.bytes)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n, sum("size")::bigint AS bytes FROM new_rows WHERE "stored"
          GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_insert ON files;
CREATE TRIGGER owner_usage_insert AFTER INSERT ON files
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION owner_usage_files_inserted();

-- Stored versions deleted.
CREATE OR REPLACE FUNCTION owner_usage_files_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", 0, -g.n, -g.bytes)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n, sum("size")::bigint AS bytes FROM old_rows WHERE "stored"
          GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_delete ON files;
CREATE TRIGGER owner_usage_delete AFTER DELETE ON files
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION owner_usage_files_deleted();

-- A placeholder stored (makeCurrent), and should SQL ever unstore a version, resize it or move it.
CREATE OR REPLACE FUNCTION owner_usage_file_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."stored" THEN
    PERFORM "owner_usage_add"(OLD."owner_id", OLD."sandbox", 0, -1, -OLD."size");
  END IF;
  IF NEW."stored" THEN
    PERFORM "owner_usage_add"(NEW."owner_id", NEW."sandbox", 0, 1, NEW."size");
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_update ON files;
CREATE TRIGGER owner_usage_update AFTER UPDATE OF stored, size, owner_id, sandbox ON files
  FOR EACH ROW WHEN ((old.stored OR new.stored)
      AND (old.stored, old.size, old.owner_id, old.sandbox) IS DISTINCT FROM (new.stored, new.size, new.owner_id, new.sandbox))
  EXECUTE FUNCTION owner_usage_file_updated();

-- TRUNCATE passes the row and delete triggers by: entries' empties the usage, files' zeroes the
-- versions and bytes.
CREATE OR REPLACE FUNCTION owner_usage_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'entries' THEN
    DELETE FROM "owner_usage";
  ELSE
    UPDATE "owner_usage" SET "files" = 0, "bytes" = 0 WHERE "files" <> 0 OR "bytes" <> 0;
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS owner_usage_truncate ON entries;
CREATE TRIGGER owner_usage_truncate AFTER TRUNCATE ON entries
  FOR EACH STATEMENT
  EXECUTE FUNCTION owner_usage_truncated();
DROP TRIGGER IF EXISTS owner_usage_truncate ON files;
CREATE TRIGGER owner_usage_truncate AFTER TRUNCATE ON files
  FOR EACH STATEMENT
  EXECUTE FUNCTION owner_usage_truncated();
