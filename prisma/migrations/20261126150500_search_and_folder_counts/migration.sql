-- Scale (issue 25): every hot list read through an index at a million entries in one workspace.
-- 1. entry_search: what `?q=` searches, one row per name (an entry's name, its key, each current
--    version's and each placeholder's name) under a trigram index.
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
    "source_id" UUID NOT NULL,
    "field" TEXT NOT NULL,
    "entry_id" UUID NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "entry_search_pkey" PRIMARY KEY ("source_id","field")
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
CREATE INDEX "entry_search_entry_id_idx" ON "entry_search"("entry_id");

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
-- entry_search: one row per name that `?q=` matches (lib/silo/list-entries.ts), so a write touches
-- only the rows of what it wrote, however many files its entry holds:
--   field 'name'        source_id = the entry's id   text = its name
--   field 'key'         source_id = the entry's id   text = its key (no row without one)
--   field 'version'     source_id = a slot's id      text = the name of its current version
--   field 'placeholder' source_id = a file's id      text = its name, while it is not stored
-- Every write is an upsert or a delete by primary key, so the order in which one statement's
-- triggers fire (entries, slots and files written by one statement's CTEs) cannot leave a row
-- behind, and a slot inserted before its current version (a seed's bulk SQL) gets its row when the
-- version is inserted. Inserts and deletes are statement triggers over the transition tables (a
-- bulk insert in one pass); updates are row triggers that fire only when a searched column changes.
-- Each looks up what it needs per row written, by primary key: a correlated subquery, a lateral one
-- kept apart by OFFSET 0, or = ANY(ARRAY(…)) on the primary key, so no plan (not even one cached
-- from a bulk insert, nor one made on stale statistics) can scan a table. An entry's delete takes
-- its rows by the foreign key's cascade.

-- Upsert without rewriting a row that did not change (each rewrite is a GIN update).
CREATE FUNCTION "entry_search_put"(source_ UUID, field_ TEXT, entry_ UUID, text_ TEXT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text") VALUES (source_, field_, entry_, text_)
  ON CONFLICT ("source_id", "field") DO UPDATE SET "entry_id" = EXCLUDED."entry_id", "text" = EXCLUDED."text"
    WHERE ("entry_search"."entry_id", "entry_search"."text") IS DISTINCT FROM (EXCLUDED."entry_id", EXCLUDED."text")
$$;

CREATE FUNCTION "entry_search_entries_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
    SELECT "id", 'name', "id", "name" FROM new_rows
    UNION ALL SELECT "id", 'key', "id", "key" FROM new_rows WHERE "key" IS NOT NULL
  ON CONFLICT ("source_id", "field") DO UPDATE SET "text" = EXCLUDED."text";
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_entry_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- A slot's row: the name of the version it names now, or none (no version yet, or not inserted yet).
CREATE FUNCTION "entry_search_slot"(slot_ UUID, current_ UUID) RETURNS void LANGUAGE plpgsql AS $$
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

CREATE FUNCTION "entry_search_slots_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
    SELECT n."id", 'version', m."entry_id", m."name"
    FROM new_rows n CROSS JOIN LATERAL (SELECT m."entry_id", m."name" FROM "files" m WHERE m."id" = n."current_id" OFFSET 0) m
  ON CONFLICT ("source_id", "field") DO UPDATE SET "entry_id" = EXCLUDED."entry_id", "text" = EXCLUDED."text";
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_slot_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "entry_search_slot"(NEW."id", NEW."current_id");
  RETURN NULL;
END
$$;

CREATE FUNCTION "entry_search_slots_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "entry_search" WHERE "field" = 'version' AND "source_id" = ANY(ARRAY(SELECT "id" FROM old_rows));
  RETURN NULL;
END
$$;

-- A new placeholder's row; a new version's, when its slot already names it (the slot inserted first).
CREATE FUNCTION "entry_search_files_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE FUNCTION "entry_search_file_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- A deleted file takes its placeholder row, and the row of a slot that still names it.
CREATE FUNCTION "entry_search_files_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "entry_search" WHERE "field" = 'placeholder' AND "source_id" = ANY(ARRAY(SELECT "id" FROM old_rows WHERE NOT "stored"));
  DELETE FROM "entry_search" WHERE "field" = 'version' AND "source_id" = ANY(ARRAY(
    SELECT o."slot_id" FROM old_rows o WHERE (SELECT ms."current_id" FROM "file_slots" ms WHERE ms."id" = o."slot_id") = o."id"));
  RETURN NULL;
END
$$;

CREATE TRIGGER "entry_search_insert" AFTER INSERT ON "entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_entries_inserted"();
CREATE TRIGGER "entry_search_update" AFTER UPDATE OF "name", "key" ON "entries" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."key" IS DISTINCT FROM NEW."key")
  EXECUTE FUNCTION "entry_search_entry_updated"();
CREATE TRIGGER "entry_search_slots_insert" AFTER INSERT ON "file_slots"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_slots_inserted"();
CREATE TRIGGER "entry_search_slots_update" AFTER UPDATE OF "current_id" ON "file_slots" FOR EACH ROW
  WHEN (OLD."current_id" IS DISTINCT FROM NEW."current_id")
  EXECUTE FUNCTION "entry_search_slot_updated"();
CREATE TRIGGER "entry_search_slots_delete" AFTER DELETE ON "file_slots"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_slots_deleted"();
CREATE TRIGGER "entry_search_files_insert" AFTER INSERT ON "files"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_files_inserted"();
CREATE TRIGGER "entry_search_files_update" AFTER UPDATE OF "name", "stored", "entry_id" ON "files" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."stored" IS DISTINCT FROM NEW."stored" OR OLD."entry_id" IS DISTINCT FROM NEW."entry_id")
  EXECUTE FUNCTION "entry_search_file_updated"();
CREATE TRIGGER "entry_search_files_delete" AFTER DELETE ON "files"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "entry_search_files_deleted"();

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
INSERT INTO "entry_search" ("source_id", "field", "entry_id", "text")
  SELECT "id", 'name', "id", "name" FROM "entries"
  UNION ALL SELECT "id", 'key', "id", "key" FROM "entries" WHERE "key" IS NOT NULL
  UNION ALL SELECT ms."id", 'version', m."entry_id", m."name" FROM "file_slots" ms JOIN "files" m ON m."id" = ms."current_id"
  UNION ALL SELECT "id", 'placeholder', "entry_id", "name" FROM "files" WHERE NOT "stored";
INSERT INTO "folder_counts" ("owner_id", "sandbox", "prefix", "parent", "entries")
  SELECT "owner_id", "sandbox", "prefix", "folder_parent"("prefix"), count(*) FROM "entry_folders" GROUP BY 1, 2, 3;
