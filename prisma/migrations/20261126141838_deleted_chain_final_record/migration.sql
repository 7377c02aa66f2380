-- AlterTable
ALTER TABLE "deleted_chains" ADD COLUMN     "final_record" JSONB;

-- A workspace's deletion first writes each of its chains' final head into deleted_chains, and now
-- the final record itself (its events row, as to_jsonb gives it): what the chain's last word was —
-- an administrator's retention.bypassed when the delete overrode governance retention — stays
-- readable and its hash recomputable once the chain is gone (docs/api.md, Events).
CREATE OR REPLACE FUNCTION "silo_keep_final_heads"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "deleted_chains" ("owner_id", "sandbox", "seq", "hash", "final_record")
    SELECT h."owner_id", h."sandbox", h."seq", h."hash",
      (SELECT to_jsonb(ev) FROM "events" ev WHERE ev."owner_id" = h."owner_id" AND ev."sandbox" = h."sandbox" AND ev."seq" = h."seq")
    FROM "chain_heads" h WHERE h."owner_id" = OLD."id"
    ON CONFLICT DO NOTHING;
  RETURN OLD;
END
$$;
