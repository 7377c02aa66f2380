-- CreateTable
CREATE TABLE "entry_folders" (
    "entry_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "entry_folders_pkey" PRIMARY KEY ("entry_id","prefix")
);

-- CreateIndex
CREATE INDEX "entry_folders_owner_id_sandbox_prefix_created_at_entry_id_idx" ON "entry_folders"("owner_id", "sandbox", "prefix", "created_at" DESC, "entry_id" DESC);

-- AddForeignKey
ALTER TABLE "entry_folders" ADD CONSTRAINT "entry_folders_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every ancestor folder of a folder, the folder included: 'a/b/c' → 'a', 'a/b', 'a/b/c'; '' → none.
-- A prefix ends before a '/' (never at the first character, so no empty prefix) or is the folder.
CREATE FUNCTION "entry_folder_prefixes"(folder TEXT) RETURNS SETOF TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT left(folder, i - 1) FROM generate_series(2, length(folder)) AS i WHERE substr(folder, i, 1) = '/'
  UNION ALL
  SELECT folder WHERE folder <> ''
$$;

-- entry_folders follows its entry in the statement that writes it (insert, PUT, PATCH of folder);
-- a deleted entry's rows go by the foreign key's cascade.
CREATE FUNCTION "entries_folders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "entry_folders" WHERE "entry_id" = OLD."id";
  END IF;
  INSERT INTO "entry_folders" ("entry_id", "owner_id", "sandbox", "prefix", "created_at")
    SELECT NEW."id", NEW."owner_id", NEW."sandbox", p, NEW."created_at" FROM "entry_folder_prefixes"(NEW."folder") AS p;
  RETURN NULL;
END
$$;

CREATE TRIGGER "entries_folders_insert" AFTER INSERT ON "entries"
  FOR EACH ROW EXECUTE FUNCTION "entries_folders"();

CREATE TRIGGER "entries_folders_update" AFTER UPDATE OF "folder", "created_at", "owner_id", "sandbox" ON "entries"
  FOR EACH ROW
  WHEN (OLD."folder" IS DISTINCT FROM NEW."folder" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
        OR OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."sandbox" IS DISTINCT FROM NEW."sandbox")
  EXECUTE FUNCTION "entries_folders"();

-- Backfill: the entries written before this migration.
INSERT INTO "entry_folders" ("entry_id", "owner_id", "sandbox", "prefix", "created_at")
  SELECT e."id", e."owner_id", e."sandbox", p, e."created_at" FROM "entries" e, "entry_folder_prefixes"(e."folder") AS p;
