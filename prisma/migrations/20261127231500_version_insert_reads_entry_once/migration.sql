-- A version's INSERT reads its entry once (bench/RESULTS.md, Session 19). Two BEFORE triggers read
-- the same entries row for every new version: files_workspace (its owner, environment and time,
-- migrations search_and_folder_counts and fact_list_order) and version_retention (its legal hold
-- under a KEY SHARE lock, its folder for the rules, migration retention), and the retention rules
-- were a second query. Timed with track_functions on the embedded database, the two took 110-130 µs
-- of each new file's insert. Now version_retention's one read of the entry sets both on INSERT, and
-- files_workspace fires only on the UPDATEs that move a version (which the API never makes). (One
-- statement joining the rules to the entry, LATERAL or as subqueries, cost more than the two.)
--
-- silo_retention_date was declared IMMUTABLE over STABLE functions (make_timestamptz, timestamptz +
-- interval, which counts days in the session's time zone), so PostgreSQL never inlined it: each
-- call ran as a function of its own (~20 µs a rule). Computed in UTC timestamps instead, every step
-- is immutable and it is inlined; the dates are those of before under the server's UTC sessions
-- (lib/console/retention-date.test.ts compares them with the browser's).

CREATE OR REPLACE FUNCTION "silo_retention_date"(p_from TEXT, p_years INTEGER, p_days INTEGER, p_at TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE AS $$
  SELECT ((CASE WHEN p_from = 'end_of_year'
    THEN make_date(extract(year FROM p_at AT TIME ZONE 'UTC')::int + 1, 1, 1)::timestamp
    ELSE p_at AT TIME ZONE 'UTC' END) + make_interval(years => p_years, days => p_days)) AT TIME ZONE 'UTC'
$$;

CREATE OR REPLACE FUNCTION "silo_version_retention"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  e RECORD;
  r RECORD;
BEGIN
  -- KEY SHARE waits for a legal hold being set (which locks the entry FOR UPDATE) and then reads it.
  SELECT x."owner_id", x."sandbox", x."created_at", x."folder", x."legal_hold" INTO e
    FROM "entries" x WHERE x."id" = NEW."entry_id" FOR KEY SHARE;
  IF TG_OP = 'INSERT' THEN
    -- what files_workspace sets on an UPDATE that moves the version (NULL without an entry: refused)
    NEW."owner_id" := e."owner_id";
    NEW."sandbox" := e."sandbox";
    NEW."entry_created_at" := e."created_at";
  END IF;
  IF NOT FOUND THEN RETURN NEW; END IF; -- the foreign key refuses the row
  NEW."legal_hold" := e."legal_hold";
  IF NOT NEW."stored" OR (TG_OP = 'UPDATE' AND OLD."stored") THEN RETURN NEW; END IF;
  SELECT max("silo_retention_date"(rr."from", rr."years", rr."days", coalesce(NEW."stored_at", now()))) AS until,
         bool_or(rr."mode" = 'compliance') AS compliance
    INTO r
    FROM "retention_rules" rr
    WHERE rr."owner_id" = e."owner_id" AND rr."sandbox" = e."sandbox"
      AND (rr."category" IS NULL OR rr."category" = NEW."category") AND "silo_folder_covers"(rr."folder", e."folder");
  IF r.until IS NOT NULL THEN
    NEW."retain_until" := greatest(NEW."retain_until", r.until);
    NEW."retention_mode" := CASE WHEN r.compliance OR NEW."retention_mode" = 'compliance' THEN 'compliance' ELSE 'governance' END;
  END IF;
  RETURN NEW;
END
$$;

DROP TRIGGER "files_workspace" ON "files";
CREATE TRIGGER "files_workspace" BEFORE UPDATE OF "entry_id", "owner_id", "sandbox", "entry_created_at" ON "files"
  FOR EACH ROW EXECUTE FUNCTION "files_workspace"();
