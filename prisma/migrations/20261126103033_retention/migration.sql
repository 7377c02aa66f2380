-- AlterTable
ALTER TABLE "entries" ADD COLUMN     "legal_hold" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "legal_hold_reason" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "legal_hold" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "retain_until" TIMESTAMPTZ(3),
ADD COLUMN     "retention_mode" TEXT;

-- CreateTable
CREATE TABLE "retention_rules" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "category" TEXT,
    "folder" TEXT,
    "years" INTEGER NOT NULL,
    "days" INTEGER NOT NULL,
    "from" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retention_rules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "retention_rules_owner_id_sandbox_idx" ON "retention_rules"("owner_id", "sandbox");

-- AddForeignKey
ALTER TABLE "retention_rules" ADD CONSTRAINT "retention_rules_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Retention (docs/api.md, Retention). A version's retain_until is the latest date its matching
-- rules give, counted from the time it is stored (or from the end of that calendar year, in UTC),
-- and no earlier than what its create asked; its mode is compliance when any of them is. Set here,
-- by the database, when a row becomes stored (an inline create's INSERT, a placeholder's or a
-- restore's UPDATE): every path that makes a version gets it, in its own statement.
CREATE FUNCTION "silo_retention_date"(p_from TEXT, p_years INTEGER, p_days INTEGER, p_at TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE WHEN p_from = 'end_of_year'
    THEN make_timestamptz(extract(year FROM p_at AT TIME ZONE 'UTC')::int + 1, 1, 1, 0, 0, 0, 'UTC')
    ELSE p_at END) + make_interval(years => p_years, days => p_days)
$$;

-- Whether a rule narrowed to `rule_folder` covers an entry in `folder`: the folder or one below it
-- (`sales` covers `sales/2026`, not `salesforce`), as ?folder= lists them.
CREATE FUNCTION "silo_folder_covers"(rule_folder TEXT, folder TEXT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT rule_folder IS NULL OR folder = rule_folder OR starts_with(folder, rule_folder || '/')
$$;

CREATE FUNCTION "silo_version_retention"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  e RECORD;
  r RECORD;
BEGIN
  -- KEY SHARE waits for a legal hold being set (which locks the entry FOR UPDATE) and then reads it.
  SELECT "owner_id", "sandbox", "folder", "legal_hold" INTO e FROM "entries" WHERE "id" = NEW."entry_id" FOR KEY SHARE;
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
CREATE TRIGGER "version_retention" BEFORE INSERT OR UPDATE OF "stored" ON "files"
  FOR EACH ROW EXECUTE FUNCTION "silo_version_retention"();

-- Compliance retention, in the database: no DELETE of a stored version whose compliance date has not
-- passed (nor of its entry or workspace, whose cascades reach it), and no UPDATE that shortens the
-- date, turns it into governance or changes the bytes it names — whoever sends it, psql included.
-- ALWAYS: a session in replica mode is refused too. The API refuses first (409 retained); this is
-- the seatbelt.
CREATE FUNCTION "silo_compliance_retained"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'version % is under compliance retention until %: DELETE is refused', OLD."id", OLD."retain_until"
      USING ERRCODE = '42501';
  END IF;
  IF NEW."retain_until" IS NULL OR NEW."retain_until" < OLD."retain_until" OR NEW."retention_mode" IS DISTINCT FROM 'compliance'
      OR NEW."hash" <> OLD."hash" OR NEW."size" <> OLD."size" OR NOT NEW."stored" OR NEW."entry_id" <> OLD."entry_id" THEN
    RAISE EXCEPTION 'version % is under compliance retention until %: this UPDATE is refused', OLD."id", OLD."retain_until"
      USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "compliance_retained" BEFORE UPDATE OR DELETE ON "files"
  FOR EACH ROW WHEN (OLD."stored" AND OLD."retention_mode" = 'compliance' AND OLD."retain_until" > now())
  EXECUTE FUNCTION "silo_compliance_retained"();
ALTER TABLE "files" ENABLE ALWAYS TRIGGER "compliance_retained";

-- TRUNCATE passes row triggers by: refused while any compliance date has not passed.
CREATE FUNCTION "silo_compliance_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "files" WHERE "stored" AND "retention_mode" = 'compliance' AND "retain_until" > now()) THEN
    RAISE EXCEPTION 'files holds versions under compliance retention: TRUNCATE is refused' USING ERRCODE = '42501';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "compliance_no_truncate" BEFORE TRUNCATE ON "files" FOR EACH STATEMENT EXECUTE FUNCTION "silo_compliance_truncate"();
ALTER TABLE "files" ENABLE ALWAYS TRIGGER "compliance_no_truncate";
