// What the metrics read at scrape time: the pool's queue now, and the database's gauges, which a
// busy or unreachable database must not hold up: past READ_DEADLINE_MS the scrape answers without
// them (and the process's own figures still come). One read at a time: scrapes of a stuck database
// do not pile statements into the queue they report.
import { database } from '../db/client';
import { recordsSinceCheckpoint } from '../events/records-since-checkpoint';
import { log } from '../log';
import type { DatabaseReadings, MetricsReadings } from '../metrics.mjs';
import { pendingDeliveries } from '../webhooks/pending-deliveries';

/** Well under Prometheus' default scrape timeout (10 s). */
export const READ_DEADLINE_MS = 2000;

/** The database read of a scrape still running: the next scrape waits for it rather than queue another. */
let reading: Promise<DatabaseReadings | undefined> | undefined;

export async function metricsReadings(deadlineMs = READ_DEADLINE_MS): Promise<MetricsReadings> {
  const db = await database();
  // Read first: the statements below wait in the same queue.
  const poolWaiting = db.waiting();
  reading ??= readDatabase(db.prisma)
    .catch((err) => {
      log.warn({ err }, 'the metrics could not read the database');
      return undefined;
    })
    .finally(() => {
      reading = undefined;
    });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadlineMs);
  });
  try {
    const readings = await Promise.race([reading, late]);
    if (readings === 'late') {
      log.warn({ deadline_ms: deadlineMs }, "the metrics answered without the database's gauges: it did not answer in time");
      return { poolWaiting };
    }
    return { poolWaiting, database: readings };
  } finally {
    clearTimeout(timer);
  }
}

async function readDatabase(db: Parameters<typeof pendingDeliveries>[0]): Promise<DatabaseReadings> {
  const [pending, sinceCheckpoint] = await Promise.all([pendingDeliveries(db), recordsSinceCheckpoint(db)]);
  return { webhookPending: pending.count, webhookOldestSeconds: pending.oldestSeconds, recordsSinceCheckpoint: sinceCheckpoint };
}
