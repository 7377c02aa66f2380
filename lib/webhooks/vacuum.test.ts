// The embedded database has no autovacuum: the engine vacuums its two tables itself every
// VACUUM_EVERY attempts (engine.ts). Here: that the statement runs on PGlite through Prisma and
// leaves no dead row versions of delivered records behind.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../events/append-event';
import { TEST_ACTOR } from '../testing/actor';
import { testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { startReceiver } from '../testing/webhook-receiver';
import { createWebhook, type WebhookSettings } from './create-webhook';
import { deliverDue, vacuumWebhookTables } from './engine';
import { secretBox } from './secret-box';

const settings: WebhookSettings = { rules: { allowHttp: true, allowPrivate: true }, box: secretBox('v'.repeat(40)) };

describe('the webhook tables vacuumed on the embedded database', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: 'pglite' });
  });
  afterAll(() => w?.close());

  it('leaves no dead row versions of the deliveries made', async () => {
    const db = w.db.prisma;
    const rx = await startReceiver();
    try {
      const chain = { ownerId: (await createTestOwner(db, 'Vacuumed')).id, sandbox: false };
      await createWebhook({ db, target: chain, input: { url: rx.url, types: ['*'], description: '' }, actor: TEST_ACTOR, settings });
      for (let i = 0; i < 50; i++)
        await appendEvent(db, { type: 'entry.updated', ...chain, actor: TEST_ACTOR, entryId: randomUUID(), data: {} });
      while (await deliverDue(db, settings));
      expect(rx.received).toHaveLength(50);
      const dead = async () => {
        const [r] = await db.$queryRaw<{ n: bigint }[]>`
          SELECT coalesce(sum(n_dead_tup), 0)::bigint AS n FROM pg_stat_user_tables WHERE relname IN ('webhook_deliveries', 'webhook_attempts')`;
        return Number(r.n);
      };
      // each delivery was claimed (a row version) and finished (another)
      await expect.poll(dead, { timeout: 5000 }).toBeGreaterThanOrEqual(50);
      await vacuumWebhookTables(db);
      expect(await dead()).toBe(0);
    } finally {
      await rx.close();
    }
  });
});
