-- Storage used by a workspace (issue 25): GET /admin/v1/owners(/{id}) read it by one aggregate over
-- every entry and stored version of the workspace, O(entries) per console page. It is counted here
-- instead, by triggers in the statement that writes entries and files (the API, the seed's bulk SQL,
-- an operator's script alike), and read as the sum of a few rows (lib/access/owner-usage.ts).
-- Same meaning as the aggregate: entries = rows of entries; files = rows of files with stored;
-- bytes = the sum of their size; by workspace and environment (the API sums both).
--
-- No writer waits on a count row. Every write of a workspace's environment would otherwise queue on
-- one row, and worse, take it before the event chain's head in some transactions (makeCurrent marks
-- a version stored, then appends its record) and after it in others (one statement that writes and
-- appends): two writers on one count row could deadlock. So owner_usage_add adds to the first row of
-- the workspace and environment that no other transaction holds (FOR UPDATE SKIP LOCKED), and when
-- every row is held it inserts a new one (shard from a sequence: never a conflict). The rows of an
-- environment are at most as many as its writers ever were at once; any one of them may go negative
-- (a delete counted on another row than the insert), their sum is exact.
--
-- The table cascades with its owner. Within that cascade (DELETE FROM owners) the entries' and files'
-- delete triggers still fire; they update what rows are left and add none for an owner that is gone
-- (the FK would refuse it), so a workspace's delete goes through as before.

-- CreateTable
CREATE TABLE "owner_usage" (
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "shard" BIGSERIAL NOT NULL,
    "entries" BIGINT NOT NULL DEFAULT 0,
    "files" BIGINT NOT NULL DEFAULT 0,
    "bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "owner_usage_pkey" PRIMARY KEY ("owner_id","sandbox","shard")
);

-- AddForeignKey
ALTER TABLE "owner_usage" ADD CONSTRAINT "owner_usage_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Adds deltas to a row of (owner_, sandbox_) that no other transaction holds, else to a new row.
CREATE FUNCTION "owner_usage_add"(owner_ UUID, sandbox_ BOOLEAN, entries_ BIGINT, files_ BIGINT, bytes_ BIGINT)
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

-- Entries: one call per workspace and environment a statement inserted into or deleted from.
CREATE FUNCTION "owner_usage_entries_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", g.n, 0, 0)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;

CREATE FUNCTION "owner_usage_entries_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", -g.n, 0, 0)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;

-- An entry moved to another workspace or environment (the API never does; SQL might).
CREATE FUNCTION "owner_usage_entry_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(OLD."owner_id", OLD."sandbox", -1, 0, 0);
  PERFORM "owner_usage_add"(NEW."owner_id", NEW."sandbox", 1, 0, 0);
  RETURN NULL;
END
$$;

-- Files: only stored versions count (a placeholder counts once its bytes are in). files.owner_id and
-- files.sandbox are the entry's (files_workspace, migration search_and_folder_counts), kept so should
-- the entry move, which is how a moved entry's versions move with it here.
CREATE FUNCTION "owner_usage_files_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", 0, g.n, g.bytes)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n, sum("size")::bigint AS bytes FROM new_rows WHERE "stored"
          GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;

CREATE FUNCTION "owner_usage_files_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "owner_usage_add"(g."owner_id", g."sandbox", 0, -g.n, -g.bytes)
    FROM (SELECT "owner_id", "sandbox", count(*) AS n, sum("size")::bigint AS bytes FROM old_rows WHERE "stored"
          GROUP BY 1, 2 ORDER BY 1, 2) g;
  RETURN NULL;
END
$$;

-- A placeholder stored (makeCurrent), and should SQL ever unstore a version, resize it or move it.
CREATE FUNCTION "owner_usage_file_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- TRUNCATE passes row and statement delete triggers by (and is refused while anything is held).
CREATE FUNCTION "owner_usage_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'entries' THEN
    DELETE FROM "owner_usage";
  ELSE
    UPDATE "owner_usage" SET "files" = 0, "bytes" = 0 WHERE "files" <> 0 OR "bytes" <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "owner_usage_insert" AFTER INSERT ON "entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "owner_usage_entries_inserted"();
CREATE TRIGGER "owner_usage_delete" AFTER DELETE ON "entries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "owner_usage_entries_deleted"();
CREATE TRIGGER "owner_usage_move" AFTER UPDATE OF "owner_id", "sandbox" ON "entries" FOR EACH ROW
  WHEN (OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."sandbox" IS DISTINCT FROM NEW."sandbox")
  EXECUTE FUNCTION "owner_usage_entry_moved"();
CREATE TRIGGER "owner_usage_truncate" AFTER TRUNCATE ON "entries" FOR EACH STATEMENT EXECUTE FUNCTION "owner_usage_truncated"();

CREATE TRIGGER "owner_usage_insert" AFTER INSERT ON "files"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "owner_usage_files_inserted"();
CREATE TRIGGER "owner_usage_delete" AFTER DELETE ON "files"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "owner_usage_files_deleted"();
CREATE TRIGGER "owner_usage_update" AFTER UPDATE OF "stored", "size", "owner_id", "sandbox" ON "files" FOR EACH ROW
  WHEN ((OLD."stored" OR NEW."stored")
    AND (OLD."stored", OLD."size", OLD."owner_id", OLD."sandbox") IS DISTINCT FROM (NEW."stored", NEW."size", NEW."owner_id", NEW."sandbox"))
  EXECUTE FUNCTION "owner_usage_file_updated"();
CREATE TRIGGER "owner_usage_truncate" AFTER TRUNCATE ON "files" FOR EACH STATEMENT EXECUTE FUNCTION "owner_usage_truncated"();

-- ---------------------------------------------------------------------------------------------
-- Backfill: what was written before this migration, as the aggregate the API ran counted it.
INSERT INTO "owner_usage" ("owner_id", "sandbox", "entries", "files", "bytes")
  SELECT e."owner_id", e."sandbox", e.n, coalesce(f.n, 0), coalesce(f.bytes, 0)
  FROM (SELECT "owner_id", "sandbox", count(*) AS n FROM "entries" GROUP BY 1, 2) e
  LEFT JOIN (SELECT x."owner_id", x."sandbox", count(*) AS n, sum(v."size")::bigint AS bytes
             FROM "files" v JOIN "entries" x ON x."id" = v."entry_id" WHERE v."stored" GROUP BY 1, 2) f
    ON f."owner_id" = e."owner_id" AND f."sandbox" = e."sandbox";
