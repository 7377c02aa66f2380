-- CreateTable
CREATE TABLE "checkpoint_timestamps" (
    "owner_id" UUID NOT NULL,
    "sandbox" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL,
    "token" TEXT NOT NULL,
    "gen_time" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "checkpoint_timestamps_pkey" PRIMARY KEY ("owner_id","sandbox","seq")
);

-- AddForeignKey
ALTER TABLE "checkpoint_timestamps" ADD CONSTRAINT "checkpoint_timestamps_owner_id_sandbox_seq_fkey" FOREIGN KEY ("owner_id", "sandbox", "seq") REFERENCES "checkpoints"("owner_id", "sandbox", "seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- Append-only, as the checkpoints are (migration event_checkpoints): only a deleted workspace's cascade takes them.
CREATE TRIGGER "checkpoint_timestamps_append_only" BEFORE UPDATE OR DELETE ON "checkpoint_timestamps" FOR EACH ROW EXECUTE FUNCTION "silo_events_append_only"();
CREATE TRIGGER "checkpoint_timestamps_no_truncate" BEFORE TRUNCATE ON "checkpoint_timestamps" FOR EACH STATEMENT EXECUTE FUNCTION "silo_refuse_change"();
ALTER TABLE "checkpoint_timestamps" ENABLE ALWAYS TRIGGER "checkpoint_timestamps_append_only";
ALTER TABLE "checkpoint_timestamps" ENABLE ALWAYS TRIGGER "checkpoint_timestamps_no_truncate";
