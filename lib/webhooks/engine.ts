// The delivery engine, in every server instance: each round scans the event log into deliveries,
// then claims the due ones (a lease per delivery: one instance sends each attempt) and sends them
// at once; rounds follow each other while there is work, else every `pollMs`. While the instance's
// requests keep it busy, it sends a trickle instead (pace.ts). A process killed mid-attempt loses
// nothing: its lease lapses and any instance sends the delivery again, with the same webhook-id.
// Old attempts and finished deliveries go after 30 days.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { failureLevel } from '../db/db-errors';
import { runExclusively } from '../db/job-lease';
import { log } from '../log';
import { ownsWebhookTables } from './autovacuum';
import type { WebhookSettings } from './create-webhook';
import { attemptDelivery, type Claimed, claimDeliveries, LEASE_MS, workspaceCap } from './deliver';
import { BUSY_ROUND_MS, BUSY_SCAN, type Pace, pace as requestPace } from './pace';
import { successRecorder } from './record-successes';
import { SCAN_BATCH, scanEvents } from './scan-events';
import { ATTEMPTS_KEPT_MS } from './schedule';

export interface EngineOptions {
  /** the time the schedule runs on (tests move it) */
  now?: () => Date;
  pollMs?: number;
  /** attempts in flight per instance (CONCURRENCY) */
  concurrency?: number;
  /** attempts in flight per workspace per instance (workspaceCap: half of `concurrency`) */
  workspaceCap?: number;
  leaseMs?: number;
  timeoutMs?: number;
  /** how fast to send: the instance's requests first (pace.ts); tests pass their own */
  pace?: Pace;
  /** vacuum the engine's tables every VACUUM_EVERY attempts: where no autovacuum does (the embedded database; autovacuum.ts) */
  vacuum?: boolean;
}

/**
 * Attempts between two vacuums of the engine's tables on the embedded database. Each leaves
 * dead row versions (a delivery claimed, then finished) and their index entries; with no autovacuum
 * every claim would read more of them than the last (a claim with nothing due took 2 ms after 18,000
 * deliveries, 1 ms once vacuumed). Small enough that one vacuum holds the database's one thread for
 * a few ms.
 */
export const VACUUM_EVERY = 5_000;

/**
 * Attempts in flight per instance. An attempt is a round trip to the receiver and a share of a
 * statement: at 16, 200 files/s (400 records/s) outran the engine on this machine kind, and records
 * waited seconds.
 */
export const CONCURRENCY = 64;

/** One round: scan, then claim and send what is due. How many attempts it made. */
export async function deliverDue(db: Db, settings: WebhookSettings, o: EngineOptions & { holder?: string } = {}): Promise<number> {
  const now = o.now ?? (() => new Date());
  const holder = o.holder ?? randomUUID();
  await scanEvents(db, now());
  const max = o.concurrency ?? CONCURRENCY;
  const claimed = await claimDeliveries(db, holder, now(), max, o.leaseMs ?? LEASE_MS, {
    inFlight: new Map(),
    cap: o.workspaceCap ?? workspaceCap(max),
  });
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

let vacuumRefusedLogged = false;

/**
 * VACUUM of the tables each attempt writes, where no autovacuum does (autovacuum.ts). Only their
 * owner may: run as a role that does not own them (DATABASE_OWNER_URL set), it logs that once and
 * skips (PostgreSQL itself would only warn and skip). False when it skipped.
 */
export async function vacuumWebhookTables(db: Db): Promise<boolean> {
  if (!(await ownsWebhookTables(db))) {
    if (!vacuumRefusedLogged)
      log.warn(
        'the webhook tables are not vacuumed: autovacuum is off for them and only their owner (DATABASE_OWNER_URL) may VACUUM; turn autovacuum on or vacuum webhook_deliveries and webhook_attempts as the owner',
      );
    vacuumRefusedLogged = true;
    return false;
  }
  const t = performance.now();
  await db.$executeRawUnsafe('VACUUM webhook_deliveries, webhook_attempts');
  log.debug({ ms: Math.round(performance.now() - t) }, 'webhook tables vacuumed');
  return true;
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
 * its 15 s, not the whole instance's turn, so other endpoints' records do not wait on it. A
 * workspace has at most `workspaceCap` of them (its chains included), and the claim gives the
 * workspaces with the fewest in flight their turn first (deliver.ts, claimSql).
 */
export function startWebhooks(db: Db, settings: WebhookSettings, o: EngineOptions = {}): () => Promise<void> {
  const now = o.now ?? (() => new Date());
  const holder = randomUUID();
  const concurrency = o.concurrency ?? CONCURRENCY;
  const fair = { inFlight: new Map<string, number>(), cap: o.workspaceCap ?? workspaceCap(concurrency) };
  const count = (owner: string, by: number) => {
    const n = (fair.inFlight.get(owner) ?? 0) + by;
    if (n > 0) fair.inFlight.set(owner, n);
    else fair.inFlight.delete(owner);
  };
  const successes = successRecorder(db, holder, now, o.leaseMs);
  const pace = o.pace ?? requestPace();
  const chaining = () => !pace.busy();
  let attempts = 0;
  const onAttempt = () => {
    attempts++;
  };
  let wasBusy = false;
  // the id its leases carry (webhook_deliveries.lease_holder): which instance holds an attempt
  log.info({ webhook_lease_holder: holder }, 'webhook deliveries started');
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastSweep = 0;
  const launch = (d: Claimed) => {
    count(d.ownerId, 1);
    const p: Promise<void> = attemptDelivery(
      { db, settings, holder, now, timeoutMs: o.timeoutMs, leaseMs: o.leaseMs, successes, chaining, onAttempt },
      d,
    )
      .then(() => undefined)
      .catch((err) => log[failureLevel(err)]({ err, delivery_id: d.id }, 'webhook attempt failed'))
      .finally(() => {
        inFlight.delete(p);
        count(d.ownerId, -1);
        // an entry's next record may be due now (a busy instance waits for its next round)
        if (!pace.busy()) wake?.();
      });
    inFlight.add(p);
  };
  const loop = (async () => {
    while (!stopped) {
      let claimed = 0;
      const busy = pace.busy();
      if (busy !== wasBusy) {
        wasBusy = busy;
        log.debug({ busy }, busy ? 'webhook deliveries slowed: requests keep the instance busy' : 'webhook deliveries at full speed');
      }
      try {
        if (o.vacuum && attempts >= VACUUM_EVERY) {
          attempts = 0;
          await vacuumWebhookTables(db);
        }
        await scanEvents(db, now(), busy ? BUSY_SCAN : SCAN_BATCH);
        const free = pace.take(concurrency - inFlight.size);
        if (free > 0) {
          const due = await claimDeliveries(db, holder, now(), free, o.leaseMs ?? LEASE_MS, fair);
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
      if ((!claimed || busy) && !stopped)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, busy ? Math.min(BUSY_ROUND_MS, o.pollMs ?? 1000) : (o.pollMs ?? 1000));
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
