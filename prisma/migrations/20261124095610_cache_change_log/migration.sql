-- CreateTable
CREATE TABLE "cache_changes" (
    "xid" BIGINT NOT NULL,
    "table_name" TEXT NOT NULL,

    CONSTRAINT "cache_changes_pkey" PRIMARY KEY ("xid","table_name")
);

-- CreateTable
CREATE TABLE "cache_horizon" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "xid" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "cache_horizon_pkey" PRIMARY KEY ("id")
);

-- The change log of the read cache (lib/db/read-cache.ts, createChangeLogReadCache): after every
-- statement that writes a table the cache reads, the table and the writing transaction's id. A
-- cache asks which tables changed between two snapshots of the database: the rows of transactions
-- committed in the later snapshot and not in the earlier one. The embedded database, written by
-- one process that sees every write itself, sets silo.change_log = 'off' and keeps no log.
CREATE FUNCTION "note_cache_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('silo.change_log', true) IS DISTINCT FROM 'off' THEN
    INSERT INTO "cache_changes" ("xid", "table_name") VALUES (pg_current_xact_id()::text::bigint, TG_TABLE_NAME)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

-- The tables read through the cache: TRACKED_TABLES in lib/db/read-cache.ts (a test compares them).
DO $$
DECLARE t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['api_keys', 'enrollment_tokens', 'enrollments', 'apps', 'entries', 'entry_folders', 'file_slots', 'files'] LOOP
    EXECUTE format('CREATE TRIGGER "cache_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "note_cache_change"()', t);
  END LOOP;
END
$$;

INSERT INTO "cache_horizon" ("id", "xid") VALUES (1, 0);
