-- CreateTable
CREATE TABLE "checkpoints" (
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "key_id" TEXT NOT NULL,
    "signature" TEXT NOT NULL,

    CONSTRAINT "checkpoints_pkey" PRIMARY KEY ("owner_id","sandbox","seq")
);

-- AddForeignKey
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "owners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Append-only, as the events are (migration event_log): only a deleted workspace's cascade takes them.
CREATE TRIGGER "checkpoints_append_only" BEFORE UPDATE OR DELETE ON "checkpoints" FOR EACH ROW EXECUTE FUNCTION "silo_events_append_only"();
CREATE TRIGGER "checkpoints_no_truncate" BEFORE TRUNCATE ON "checkpoints" FOR EACH STATEMENT EXECUTE FUNCTION "silo_refuse_change"();
ALTER TABLE "checkpoints" ENABLE ALWAYS TRIGGER "checkpoints_append_only";
ALTER TABLE "checkpoints" ENABLE ALWAYS TRIGGER "checkpoints_no_truncate";
