-- The read cache's change log (lib/db/read-cache.ts, createChangeLogReadCache): every statement
-- that writes a table the cache reads notes that table and its transaction's id in cache_changes,
-- and a cache asks which tables transactions it has not seen wrote. The triggers fire ALWAYS (a
-- write in replica mode is logged too); a start re-arms any that was disabled (arm_cache_change_log).

-- Notes the written table under the writing transaction's id. The embedded database, whose one
-- process sees every write itself, sets silo.change_log = 'off' and keeps no log; PostgreSQL
-- ignores
-- the setting (any session could set it), so there the log is always kept. On every table the cache
-- reads (TRACKED_TABLES, lib/db/read-cache.ts; read-cache.test.ts compares them with pg_trigger).
CREATE OR REPLACE FUNCTION note_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('silo.change_log', true) = 'off' AND version() LIKE '%PGlite%' THEN
    RETURN NULL;
  END IF;
  INSERT INTO "cache_changes" ("xid", "table_name") VALUES (pg_current_xact_id()::text::bigint, TG_TABLE_NAME)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS cache_change ON api_keys;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE api_keys ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON apps;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON apps
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE apps ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON enrollment_tokens;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON enrollment_tokens
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE enrollment_tokens ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON enrollments;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON enrollments
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE enrollments ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON entries;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON entries
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE entries ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON entry_folders;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON entry_folders
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE entry_folders ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON entry_search;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON entry_search
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE entry_search ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON file_slots;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON file_slots
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE file_slots ENABLE ALWAYS TRIGGER cache_change;
DROP TRIGGER IF EXISTS cache_change ON files;
CREATE TRIGGER cache_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON files
  FOR EACH STATEMENT
  EXECUTE FUNCTION note_cache_change();
ALTER TABLE files ENABLE ALWAYS TRIGGER cache_change;

-- Makes every cache_change trigger ALWAYS again (a data-only restore leaves them disabled or
-- origin-only); when one was not, notes every tracked table changed, so a cache that asked while it
-- was off reloads everything. Answers how many it re-armed; run by every PostgreSQL start
-- (lib/db/prepare-schema.ts, armChangeLog).
CREATE OR REPLACE FUNCTION arm_cache_change_log() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t TEXT;
  n INTEGER := 0;
BEGIN
  FOR t IN SELECT c.relname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
           WHERE g.tgname = 'cache_change' AND g.tgenabled <> 'A' AND c.relnamespace = current_schema()::regnamespace LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER "cache_change"', t);
    n := n + 1;
  END LOOP;
  IF n > 0 THEN
    INSERT INTO "cache_changes" ("xid", "table_name")
      SELECT pg_current_xact_id()::text::bigint, c.relname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
      WHERE g.tgname = 'cache_change' AND c.relnamespace = current_schema()::regnamespace
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN n;
END
$$;
