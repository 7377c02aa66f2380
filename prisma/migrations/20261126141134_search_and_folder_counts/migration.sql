-- Scale (issue 25): every hot list read through an index at a million entries in one workspace.
-- 1. entry_search: what `?q=` searches, one text per entry under a trigram index.
-- 2. folder_counts: GET /silo/v1/folders as an index range (paged; `?parent=` for one level).
-- 3. files.owner_id/sandbox: the fact indexes lead with the workspace.
-- Each derived row is kept by triggers in the statement that writes its source, so rows written by
-- SQL (bench's seed, an operator's script) stay consistent too. The statement triggers read the
-- statement's transition tables: a bulk insert refreshes its rows in one pass, not row by row.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- DropIndex: the fact indexes become the workspace's (below)
DROP INDEX "files_fact_buyer_vat_idx";
DROP INDEX "files_fact_currency_idx";
DROP INDEX "files_fact_issue_date_idx";
DROP INDEX "files_fact_number_idx";
DROP INDEX "files_fact_seller_vat_idx";

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "owner_id" UUID,
ADD COLUMN     "sandbox" BOOLEAN;

-- CreateTable
CREATE TABLE "entry_search" (
    "entry_id" UUID NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "entry_search_pkey" PRIMARY KEY ("entry_id")
);

-- CreateTable: prefix and parent sort by code point, as the folder list always has.
CREATE TABLE "folder_counts" (
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "prefix" TEXT COLLATE "C" NOT NULL,
    "parent" TEXT COLLATE "C" NOT NULL,
    "entries" INTEGER NOT NULL,

    CONSTRAINT "folder_counts_pkey" PRIMARY KEY ("owner_id","sandbox","prefix")
);

-- CreateIndex. No pending list (fastupdate): a search would read all of it, however large it grew
-- since the last vacuum; each write pays for its own index entries instead.
CREATE INDEX "entry_search_text_idx" ON "entry_search" USING GIN ("text" gin_trgm_ops) WITH (fastupdate = off);

-- CreateIndex
CREATE INDEX "folder_counts_owner_id_sandbox_parent_prefix_idx" ON "folder_counts"("owner_id", "sandbox", "parent", "prefix");

-- CreateIndex
CREATE INDEX "files_owner_id_sandbox_fact_seller_vat_idx" ON "files"("owner_id", "sandbox", "fact_seller_vat");

-- CreateIndex
CREATE INDEX "files_owner_id_sandbox_fact_buyer_vat_idx" ON "files"("owner_id", "sandbox", "fact_buyer_vat");

-- CreateIndex
CREATE INDEX "files_owner_id_sandbox_fact_number_idx" ON "files"("owner_id", "sandbox", "fact_number");

-- CreateIndex
CREATE INDEX "files_owner_id_sandbox_fact_issue_date_idx" ON "files"("owner_id", "sandbox", "fact_issue_date");

-- CreateIndex
CREATE INDEX "files_owner_id_sandbox_fact_currency_idx" ON "files"("owner_id", "sandbox", "fact_currency");

-- AddForeignKey
ALTER TABLE "entry_search" ADD CONSTRAINT "entry_search_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- files.owner_id, files.sandbox: the entry's, copied as a version is inserted (and should an entry
-- ever move, after it).
CREATE FUNCTION "files_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT e."owner_id", e."sandbox" INTO NEW."owner_id", NEW."sandbox" FROM "entries" e WHERE e."id" = NEW."entry_id";
  RETURN NEW;
END
$$;

CREATE TRIGGER "files_workspace" BEFORE INSERT OR UPDATE OF "entry_id", "owner_id", "sandbox" ON "files"
  FOR EACH ROW EXECUTE FUNCTION "files_workspace"();

CREATE FUNCTION "entries_files_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "files" SET "owner_id" = NEW."owner_id", "sandbox" = NEW."sandbox" WHERE "entry_id" = NEW."id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "entries_files_workspace" AFTER UPDATE OF "owner_id", "sandbox" ON "entries"
  FOR EACH ROW
  WHEN (OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."sandbox" IS DISTINCT FROM NEW."sandbox")
  EXECUTE FUNCTION "entries_files_workspace"();

-- ---------------------------------------------------------------------------------------------
-- entry_search.text: the entry's name, its key, and the name of each current version and each
-- placeholder (what `?q=` matches, lib/silo/list-entries.ts), one per line. A match of a term
-- without a newline in this text lies within one of them. entry_search_text is one entry's, as
-- entry_search_refresh writes it for many at once (entry-search.test.ts holds them to each other).
CREATE FUNCTION "entry_search_text"(entry UUID) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT e."name" || E'\n' || coalesce(e."key", '') || coalesce((
    SELECT string_agg(E'\n' || m."name", '') FROM "files" m JOIN "file_slots" ms ON ms."id" = m."slot_id"
    WHERE m."entry_id" = e."id" AND (ms."current_id" = m."id" OR NOT m."stored")), '')
  FROM "entries" e WHERE e."id" = entry
$$;

-- Writes (or rewrites) the search text of these entries, in one set-based statement; one that is gone is left out. An upsert,
-- so the order in which a statement's triggers fire (entries, slots and files written by one
-- statement's CTEs) cannot leave a row behind; a text that did not change is not written again.
CREATE FUNCTION "entry_search_refresh"(ids UUID[]) RETURNS void LANGUAGE sql AS $$
  WITH d AS (SELECT DISTINCT i FROM unnest(ids) AS i),
  names AS (
    SELECT m."entry_id", string_agg(E'\n' || m."name", '') AS names
    FROM d JOIN "files" m ON m."entry_id" = d.i JOIN "file_slots" ms ON ms."id" = m."slot_id"
    WHERE ms."current_id" = m."id" OR NOT m."stored"
    GROUP BY m."entry_id")
  INSERT INTO "entry_search" ("entry_id", "text")
    SELECT e."id", e."name" || E'\n' || coalesce(e."key", '') || coalesce(n.names, '')
    FROM d JOIN "entries" e ON e."id" = d.i LEFT JOIN names n ON n."entry_id" = e."id"
  ON CONFLICT ("entry_id") DO UPDATE SET "text" = EXCLUDED."text" WHERE "entry_search"."text" IS DISTINCT FROM EXCLUDED."text"
$$;

-- Each statement refreshes the entries it may have changed, all at once. Transition tables differ
-- by event, so one function per table and event.
CREATE FUNCTION "entry_search_entries_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_refresh"(ARRAY(SELECT "id" FROM new_rows));
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_entries_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_refresh"(ARRAY(SELECT n."id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE o."name" IS DISTINCT FROM n."name" OR o."key" IS DISTINCT FROM n."key"));
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_files_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_refresh"(ARRAY(SELECT "entry_id" FROM new_rows));
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_files_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_refresh"(ARRAY(SELECT unnest(ARRAY[n."entry_id", o."entry_id"]) FROM new_rows n JOIN old_rows o ON o."id" = n."id"
    WHERE o."name" IS DISTINCT FROM n."name" OR o."stored" IS DISTINCT FROM n."stored" OR o."entry_id" IS DISTINCT FROM n."entry_id"));
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_files_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_refresh"(ARRAY(SELECT "entry_id" FROM old_rows));
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_slots_written"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "entry_search_refresh"(ARRAY(SELECT "entry_id" FROM new_rows WHERE "current_id" IS NOT NULL));
  ELSE
    PERFORM "entry_search_refresh"(ARRAY(SELECT n."entry_id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE o."current_id" IS DISTINCT FROM n."current_id"));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "entry_search_insert" AFTER INSERT ON "entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_entries_inserted"();
CREATE TRIGGER "entry_search_update" AFTER UPDATE ON "entries"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_entries_updated"();
CREATE TRIGGER "entry_search_files_insert" AFTER INSERT ON "files"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_files_inserted"();
CREATE TRIGGER "entry_search_files_update" AFTER UPDATE ON "files"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_files_updated"();
CREATE TRIGGER "entry_search_files_delete" AFTER DELETE ON "files"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_files_deleted"();
CREATE TRIGGER "entry_search_slots_insert" AFTER INSERT ON "file_slots"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_slots_written"();
CREATE TRIGGER "entry_search_slots_update" AFTER UPDATE ON "file_slots"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_slots_written"();

-- The entry list reads entry_search through the read cache: its writes go in the change log
-- (migrations cache_change_log, cache_change_log_always; lib/db/read-cache.ts, TRACKED_TABLES).
CREATE TRIGGER "cache_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "entry_search"
  FOR EACH STATEMENT EXECUTE FUNCTION "note_cache_change"();
ALTER TABLE "entry_search" ENABLE ALWAYS TRIGGER "cache_change";

-- ---------------------------------------------------------------------------------------------
-- folder_counts: entry_folders counted by (owner, environment, prefix). Upserts in key order, so two
-- writers that touch the same folders take their rows' locks in the same order.
CREATE FUNCTION "folder_parent"(prefix TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN strpos(prefix, '/') = 0 THEN '' ELSE regexp_replace(prefix, '/[^/]*$', '') END
$$;

CREATE FUNCTION "folder_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "folder_counts" ("owner_id", "sandbox", "prefix", "parent", "entries")
    SELECT "owner_id", "sandbox", "prefix", "folder_parent"("prefix"), count(*) FROM new_rows
    GROUP BY "owner_id", "sandbox", "prefix" ORDER BY "owner_id", "sandbox", "prefix" COLLATE "C"
  ON CONFLICT ("owner_id", "sandbox", "prefix") DO UPDATE SET "entries" = "folder_counts"."entries" + EXCLUDED."entries";
  RETURN NULL;
END
$$;

CREATE FUNCTION "folder_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- An insert of entries writes their entry_folders rows in one statement, not one per entry (as the
-- row trigger of migration entry_folders did), so the counts follow a bulk insert in one upsert.
-- An update of an entry's folder still rewrites its rows by that row trigger.
CREATE FUNCTION "entries_folders_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_folders" ("entry_id", "owner_id", "sandbox", "prefix", "created_at")
    SELECT n."id", n."owner_id", n."sandbox", p, n."created_at" FROM new_rows n, "entry_folder_prefixes"(n."folder") AS p;
  RETURN NULL;
END
$$;

DROP TRIGGER "entries_folders_insert" ON "entries";
CREATE TRIGGER "entries_folders_insert" AFTER INSERT ON "entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entries_folders_inserted"();

-- entry_folders rows are only inserted and deleted (the entries triggers rewrite an entry's rows).
CREATE TRIGGER "folder_counts_insert" AFTER INSERT ON "entry_folders"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "folder_counts_add"();
CREATE TRIGGER "folder_counts_delete" AFTER DELETE ON "entry_folders"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "folder_counts_remove"();
CREATE TRIGGER "folder_counts_update_out" AFTER UPDATE ON "entry_folders"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "folder_counts_remove"();
CREATE TRIGGER "folder_counts_update_in" AFTER UPDATE ON "entry_folders"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "folder_counts_add"();

-- ---------------------------------------------------------------------------------------------
-- Backfill: what was written before this migration.
UPDATE "files" f SET "owner_id" = e."owner_id", "sandbox" = e."sandbox" FROM "entries" e WHERE e."id" = f."entry_id";
SELECT "entry_search_refresh"(ARRAY(SELECT "id" FROM "entries"));
INSERT INTO "folder_counts" ("owner_id", "sandbox", "prefix", "parent", "entries")
  SELECT "owner_id", "sandbox", "prefix", "folder_parent"("prefix"), count(*) FROM "entry_folders" GROUP BY 1, 2, 3;
