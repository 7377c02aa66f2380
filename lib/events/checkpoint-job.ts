// Makes the signed checkpoints every AUDIT_CHECKPOINT_SECONDS, on one instance at a time (the
// `checkpoint` job lease), then fetches RFC 3161 tokens for those without one when AUDIT_TSA_URL
// is set; a slow round is never started twice in one process.
import type { Db } from '../db/client';
import { failureLevel } from '../db/db-errors';
import { runExclusively } from '../db/job-lease';
import { log } from '../log';
import { checkpointChains, type TsaOptions, timestampCheckpoints } from './checkpoints';
import { auditKey } from './signing-key';

export function startCheckpoints(db: Db, everyMs: number, tsa?: TsaOptions): () => void {
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      const key = await auditKey();
      await runExclusively(db, 'checkpoint', everyMs, async () => {
        const made = await checkpointChains(db, key);
        if (made) log.debug({ checkpoints: made }, 'signed event log checkpoints');
        // after the checkpoints are committed, and for older ones still without a token
        const stamped = tsa ? await timestampCheckpoints(db, tsa) : 0;
        if (stamped) log.debug({ timestamps: stamped }, 'time-stamped event log checkpoints');
      });
    } catch (err) {
      log[failureLevel(err)]({ err }, 'signing event log checkpoints failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
