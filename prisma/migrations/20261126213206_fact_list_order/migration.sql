-- The fact filters page in list order (lib/silo/list-entries.ts): files.entry_created_at is the
-- entry's created_at, copied by the trigger that copies its owner and environment, and each
-- equality fact's index is (workspace, fact, entry_created_at DESC, entry_id DESC), so a page of
-- `?seller_vat=` (buyer_vat, number, currency) reads the index in the list's order and stops after a
-- page's worth: its cost does not grow with the number of entries that match. The issue date keeps
-- its index: a range of dates cannot be read in list order.

-- DropIndex
DROP INDEX "files_owner_id_sandbox_fact_buyer_vat_idx";

-- DropIndex
DROP INDEX "files_owner_id_sandbox_fact_currency_idx";

-- DropIndex
DROP INDEX "files_owner_id_sandbox_fact_number_idx";

-- DropIndex
DROP INDEX "files_owner_id_sandbox_fact_seller_vat_idx";

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "entry_created_at" TIMESTAMPTZ(3);

-- Backfill what was written before this migration: before the indexes are built (one build each,
-- not an index update per row), and before the trigger below would look each row's entry up again.
UPDATE "files" f SET "entry_created_at" = e."created_at" FROM "entries" e WHERE e."id" = f."entry_id";

-- ---------------------------------------------------------------------------------------------
-- files.owner_id, sandbox, entry_created_at: the entry's, copied as a version is inserted, and
-- again whenever a write would make them differ (a version moved to another entry, a direct write of
-- one of them, the entry moved or its time changed: the API does none of these; SQL might).
CREATE OR REPLACE FUNCTION "files_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT e."owner_id", e."sandbox", e."created_at" INTO NEW."owner_id", NEW."sandbox", NEW."entry_created_at"
    FROM "entries" e WHERE e."id" = NEW."entry_id";
  RETURN NEW;
END
$$;

DROP TRIGGER "files_workspace" ON "files";
CREATE TRIGGER "files_workspace" BEFORE INSERT OR UPDATE OF "entry_id", "owner_id", "sandbox", "entry_created_at" ON "files"
  FOR EACH ROW EXECUTE FUNCTION "files_workspace"();

CREATE OR REPLACE FUNCTION "entries_files_workspace"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "files" SET "owner_id" = NEW."owner_id", "sandbox" = NEW."sandbox", "entry_created_at" = NEW."created_at"
    WHERE "entry_id" = NEW."id";
  RETURN NULL;
END
$$;

DROP TRIGGER "entries_files_workspace" ON "entries";
CREATE TRIGGER "entries_files_workspace" AFTER UPDATE OF "owner_id", "sandbox", "created_at" ON "entries"
  FOR EACH ROW
  WHEN (OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."sandbox" IS DISTINCT FROM NEW."sandbox"
    OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "entries_files_workspace"();

-- CreateIndex
CREATE INDEX "files_fact_seller_vat_list_idx" ON "files"("owner_id", "sandbox", "fact_seller_vat", "entry_created_at" DESC, "entry_id" DESC);

-- CreateIndex
CREATE INDEX "files_fact_buyer_vat_list_idx" ON "files"("owner_id", "sandbox", "fact_buyer_vat", "entry_created_at" DESC, "entry_id" DESC);

-- CreateIndex
CREATE INDEX "files_fact_number_list_idx" ON "files"("owner_id", "sandbox", "fact_number", "entry_created_at" DESC, "entry_id" DESC);

-- CreateIndex
CREATE INDEX "files_fact_currency_list_idx" ON "files"("owner_id", "sandbox", "fact_currency", "entry_created_at" DESC, "entry_id" DESC);
