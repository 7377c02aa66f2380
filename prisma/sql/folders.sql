-- The folder tree: entry_folders (a row per ancestor folder of an entry, so ?folder= is one index
-- range in list order) and folder_counts (GET /silo/v1/folders), both written by the statement that
-- writes the entry (a bulk insert in one set-based pass); a deleted entry's rows go by the foreign
-- key's cascade.

-- Every ancestor folder of a folder, the folder included: 'a/b/c' → 'a', 'a/b', 'a/b/c'; '' → none.
CREATE OR REPLACE FUNCTION entry_folder_prefixes(folder text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT left(folder, i - 1) FROM generate_series(2, length(folder)) AS i WHERE substr(folder, i, 1) = '/'
  UNION ALL
  SELECT folder WHERE folder <> ''
$$;

-- New entries' entry_folders rows, in one statement however many entries it inserted.
CREATE OR REPLACE FUNCTION entries_folders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_folders" ("entry_id", "owner_id", "sandbox", "prefix", "created_at")
    SELECT n."id", n."owner_id", n."sandbox", p, n."created_at" FROM new_rows n, "entry_folder_prefixes"(n."folder") AS p;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entries_folders_insert ON entries;
CREATE TRIGGER entries_folders_insert AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION entries_folders_inserted();

-- An entry's folder, time, workspace or environment changed: its entry_folders rows written again.
CREATE OR REPLACE FUNCTION entries_folders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "entry_folders" WHERE "entry_id" = OLD."id";
  END IF;
  INSERT INTO "entry_folders" ("entry_id", "owner_id", "sandbox", "prefix", "created_at")
    SELECT NEW."id", NEW."owner_id", NEW."sandbox", p, NEW."created_at" FROM "entry_folder_prefixes"(NEW."folder") AS p;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS entries_folders_update ON entries;
CREATE TRIGGER entries_folders_update AFTER UPDATE OF folder, created_at, owner_id, sandbox ON entries
  FOR EACH ROW WHEN (old.folder IS DISTINCT FROM new.folder
      OR old.created_at IS DISTINCT FROM new.created_at OR old.owner_id IS DISTINCT FROM new.owner_id
      OR old.sandbox IS DISTINCT FROM new.sandbox)
  EXECUTE FUNCTION entries_folders();

-- A folder's parent: the part before its last '/', '' at the top.
CREATE OR REPLACE FUNCTION folder_parent(prefix text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN strpos(prefix, '/') = 0 THEN '' ELSE regexp_replace(prefix, '/[^/]*$', '') END
$$;

-- entry_folders rows counted by workspace, environment and prefix, upserted in key order, so two
-- writers that touch the same folders lock their rows in the same order.
CREATE OR REPLACE FUNCTION folder_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "folder_counts" ("owner_id", "sandbox", "prefix", "parent", "entries")
    SELECT "owner_id", "sandbox", "prefix", "folder_parent"("prefix"), count(*) FROM new_rows
    GROUP BY "owner_id", "sandbox", "prefix" ORDER BY "owner_id", "sandbox", "prefix" COLLATE "C"
  ON CONFLICT ("owner_id", "sandbox", "prefix") DO UPDATE SET "entries" = "folder_counts"."entries" + EXCLUDED."entries";
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS folder_counts_insert ON entry_folders;
CREATE TRIGGER folder_counts_insert AFTER INSERT ON entry_folders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION folder_counts_add();
DROP TRIGGER IF EXISTS folder_counts_update_in ON entry_folders;
CREATE TRIGGER folder_counts_update_in AFTER UPDATE ON entry_folders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION folder_counts_add();

-- Removed rows taken off their counts (locked in key order); a folder with no entry left goes.
CREATE OR REPLACE FUNCTION folder_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "folder_counts" c
    WHERE (c."owner_id", c."sandbox", c."prefix") IN (SELECT "owner_id", "sandbox", "prefix" FROM old_rows)
    ORDER BY c."owner_id", c."sandbox", c."prefix" FOR UPDATE;
  UPDATE "folder_counts" c SET "entries" = c."entries" - g.n
    FROM (SELECT "owner_id", "sandbox", "prefix", count(*) AS n FROM old_rows GROUP BY 1, 2, 3) g
    WHERE c."owner_id" = g."owner_id" AND c."sandbox" = g."sandbox" AND c."prefix" = g."prefix";
  DELETE FROM "folder_counts" c
    WHERE c."entries" <= 0 AND (c."owner_id", c."sandbox", c."prefix") IN (SELECT "owner_id", "sandbox", "prefix" FROM old_rows);
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS folder_counts_delete ON entry_folders;
CREATE TRIGGER folder_counts_delete AFTER DELETE ON entry_folders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION folder_counts_remove();
DROP TRIGGER IF EXISTS folder_counts_update_out ON entry_folders;
CREATE TRIGGER folder_counts_update_out AFTER UPDATE ON entry_folders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION folder_counts_remove();
