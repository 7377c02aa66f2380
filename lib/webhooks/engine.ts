// The delivery engine, in every server instance: each round scans the event log into deliveries,
// then claims the due ones (a lease per delivery: one instance sends each attempt) and sends them
// at once; rounds follow each other while there is work, else every `pollMs`. A process killed
// mid-attempt loses nothing: its lease lapses and any instance sends the delivery again, with the
// same webhook-id. Old attempts and finished deliveries go after 30 days.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { failureLevel } from '../db/db-errors';
import { runExclusively } from '../db/job-lease';
import { log } from '../log';
import type { WebhookSettings } from './create-webhook';
import { attemptDelivery, type Claimed, claimDeliveries, LEASE_MS } from './deliver';
import { successRecorder } from './record-successes';
import { scanEvents } from './scan-events';
import { ATTEMPTS_KEPT_MS } from './schedule';

export interface EngineOptions {
  /** the time the schedule runs on (tests move it) */
  now?: () => Date;
  pollMs?: number;
  /** attempts in flight per instance (CONCURRENCY) */
  concurrency?: number;
  leaseMs?: number;
  timeoutMs?: number;
}

/**
 * Attempts in flight per instance. An attempt is a round trip to the receiver and a share of a
 * statement: at 16, 200 files/s (400 records/s) outran the engine on this machine kind, and records
 * waited seconds (bench/RESULTS.md, Session 13).
 */
export const CONCURRENCY = 64;

/** One round: scan, then claim and send what is due. How many attempts it made. */
export async function deliverDue(db: Db, settings: WebhookSettings, o: EngineOptions & { holder?: string } = {}): Promise<number> {
  const now = o.now ?? (() => new Date());
  const holder = o.holder ?? randomUUID();
  await scanEvents(db, now());
  const claimed = await claimDeliveries(db, holder, now(), o.concurrency ?? CONCURRENCY, o.leaseMs ?? LEASE_MS);
  const successes = successRecorder(db, holder, now, o.leaseMs);
  await Promise.all(
    claimed.map((d) =>
      attemptDelivery({ db, settings, holder, now, timeoutMs: o.timeoutMs, leaseMs: o.leaseMs, successes }, d).catch((err) =>
        log[failureLevel(err)]({ err, delivery_id: d.id }, 'webhook attempt failed'),
      ),
    ),
  );
  return claimed.length;
}

/** Forgets attempts older than 30 days, and finished deliveries with them. */
export async function forgetOldAttempts(db: Db, now: Date) {
  const before = new Date(now.getTime() - ATTEMPTS_KEPT_MS);
  await db.webhookAttempt.deleteMany({ where: { at: { lt: before } } });
  await db.webhookDelivery.deleteMany({ where: { state: { not: 'pending' }, finishedAt: { lt: before } } });
}

const SWEEP_EVERY_MS = 3600 * 1000;

/**
 * Starts the rounds; the returned function stops them (and waits for the attempts in flight).
 * Attempts run beside the rounds, up to `concurrency` at once: a slow endpoint takes a slot for
 * its 15 s, not the whole instance's turn, so other endpoints' records do not wait on it.
 */
export function startWebhooks(db: Db, settings: WebhookSettings, o: EngineOptions = {}): () => Promise<void> {
  const now = o.now ?? (() => new Date());
  const holder = randomUUID();
  const concurrency = o.concurrency ?? CONCURRENCY;
  const successes = successRecorder(db, holder, now, o.leaseMs);
  // the id its leases carry (webhook_deliveries.lease_holder): which instance holds an attempt
  log.info({ webhook_lease_holder: holder }, 'webhook deliveries started');
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastSweep = 0;
  const launch = (d: Claimed) => {
    const p: Promise<void> = attemptDelivery({ db, settings, holder, now, timeoutMs: o.timeoutMs, leaseMs: o.leaseMs, successes }, d)
      .then(() => undefined)
      .catch((err) => log[failureLevel(err)]({ err, delivery_id: d.id }, 'webhook attempt failed'))
      .finally(() => {
        inFlight.delete(p);
        // an entry's next record may be due now
        wake?.();
      });
    inFlight.add(p);
  };
  const loop = (async () => {
    while (!stopped) {
      let claimed = 0;
      try {
        await scanEvents(db, now());
        const free = concurrency - inFlight.size;
        if (free > 0) {
          const due = await claimDeliveries(db, holder, now(), free, o.leaseMs ?? LEASE_MS);
          claimed = due.length;
          for (const d of due) launch(d);
        }
        if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
          lastSweep = Date.now();
          await runExclusively(db, 'webhook-sweep', SWEEP_EVERY_MS, () => forgetOldAttempts(db, now()));
        }
      } catch (err) {
        log[failureLevel(err)]({ err }, 'webhook round failed');
      }
      if (!claimed && !stopped)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, o.pollMs ?? 1000);
          t.unref();
          wake = () => {
            wake = undefined;
            clearTimeout(t);
            resolve();
          };
        });
    }
  })();
  return async () => {
    stopped = true;
    wake?.();
    await loop;
    await Promise.all(inFlight);
  };
}
