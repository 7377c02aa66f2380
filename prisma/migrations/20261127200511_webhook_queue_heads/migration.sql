-- The claim walks the heads of the pending queues (one per endpoint and entry: its lowest-seq
-- pending delivery) instead of every pending delivery (ARCHITECTURE.md, Webhooks): with state first,
-- the pending rows of an index range are all it reads, however many deliveries have finished.
-- DropIndex
DROP INDEX "webhook_deliveries_webhook_id_entry_id_seq_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_webhook_id_entry_id_seq_idx" ON "webhook_deliveries"("state", "webhook_id", "entry_id", "seq");
