-- Autovacuum for the webhook deliveries every 5,000 dead row versions, not a fifth of the table.
-- Every delivery leaves one (claimed, then finished: its state is indexed, so no update is HOT), and
-- its entry in the pending part of index (state, webhook_id, entry_id, seq) stays until a vacuum:
-- the claim's probe for a queue's head and the success statement's check that nothing earlier is
-- pending step over every one of them (ARCHITECTURE.md, Webhooks). Under the small-request bench on
-- PostgreSQL the first probe read 1,019 pages (4 ms) with 233,000 dead versions, and the engine
-- sent 414 deliveries a second; 730 once vacuumed (bench/RESULTS.md, Session 21). With the default
-- scale factor a table of a million deliveries waits for 200,000. The embedded database, and a
-- PostgreSQL server with autovacuum off, get the engine's own VACUUM instead (autovacuum.ts).
ALTER TABLE "webhook_deliveries" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000);
