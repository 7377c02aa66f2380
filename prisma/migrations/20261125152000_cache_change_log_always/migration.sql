-- The change log of the read cache must note every write to the tables it tracks, whoever makes
-- it: a revoked key served from a cache is a key that still works. Two holes are closed here.
--
-- 1. Triggers in replica mode. `session_replication_role = replica` (logical replication's apply
--    workers, pg_restore --disable-triggers, an operator's script) fires only ALWAYS triggers, so
--    the cache_change triggers are made ALWAYS. They write only cache_changes, which a publication
--    must leave out (README, Run several instances).
-- 2. silo.change_log = 'off'. It is for the embedded database (PGlite), whose one process sees
--    every write itself and reads no log. On PostgreSQL any session could set it, so there the
--    setting is ignored and the log always kept.
--
-- A trigger disabled by name or by DISABLE TRIGGER ALL (a data-only restore with triggers
-- disabled, whose ENABLE TRIGGER ALL leaves them origin-only) is seen by every cache's question
-- (lib/db/client.ts, CHANGES: fewer ALWAYS triggers than tracked tables → everything changed), and
-- arm_cache_change_log(), run by every PostgreSQL instance as it starts, makes them ALWAYS again.
CREATE OR REPLACE FUNCTION "note_cache_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('silo.change_log', true) = 'off' AND version() LIKE '%PGlite%' THEN
    RETURN NULL;
  END IF;
  INSERT INTO "cache_changes" ("xid", "table_name") VALUES (pg_current_xact_id()::text::bigint, TG_TABLE_NAME)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- Makes every cache_change trigger ALWAYS; when one was not, notes every tracked table changed by
-- this transaction too, so a cache that did not ask while it was off still reloads everything.
-- Answers how many it re-armed.
CREATE FUNCTION "arm_cache_change_log"() RETURNS integer LANGUAGE plpgsql AS $$
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

-- Here no write went unlogged (the triggers were on), so no table is marked changed.
DO $$
DECLARE t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['api_keys', 'enrollment_tokens', 'enrollments', 'apps', 'entries', 'entry_folders', 'file_slots', 'files'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER "cache_change"', t);
  END LOOP;
END
$$;
