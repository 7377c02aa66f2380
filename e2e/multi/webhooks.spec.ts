// Webhooks with two instances on one PostgreSQL database (docs/api.md, Webhooks): each attempt is
// sent by one instance (a lease per delivery), and a SIGKILL of the instance sending it — the
// receiver holding the request open — loses nothing: the other sends it again, with the same
// webhook-id, once the lease lapses. B runs under another hostname, as on another host.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../../lib/testing/webhook-receiver';
import { createEntry } from '../api/helpers';
import { bearer, WEBHOOKS_TO_LOOPBACK } from '../fixtures';
import { createDatabase, startServer, type SiloServer } from '../fixtures/server';

interface Pair {
  a: SiloServer;
  b: SiloServer;
  databaseUrl: string;
}

const test = base.extend<object, { pair: Pair }>({
  pair: [
    async ({}, use) => {
      // two roles, as docs/operations.md's recipe: the instances run as one, the schema is the other's
      const db = await createDatabase({ twoRoles: true });
      const storage = await mkdtemp(path.join(os.tmpdir(), 'silo-hooks-'));
      const env = {
        DATABASE_OWNER_URL: db.ownerUrl as string,
        NEXTAUTH_SECRET: randomBytes(32).toString('hex'),
        STORAGE_DIR: storage,
        ...WEBHOOKS_TO_LOOPBACK,
      };
      const a = await startServer({ database: 'postgres', databaseUrl: db.url, env });
      const b = await startServer({
        database: 'postgres',
        databaseUrl: db.url,
        env: { ...env, ADMIN_API_KEY: a.adminKey },
        hostname: 'silo-b.test',
      });
      await use({ a, b, databaseUrl: db.url });
      await a.stop();
      await b.stop();
      await db.drop();
      await rm(storage, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

let rx: Receiver;
test.beforeEach(async () => {
  rx = await startReceiver();
});
test.afterEach(() => rx.close());

/** The lease holder of the delivery of record `eventId`, once an instance holds it. */
async function holderOf(databaseUrl: string, eventId: string): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query('SELECT lease_holder::text AS holder FROM webhook_deliveries WHERE event_id = $1', [eventId]);
    return r.rows[0]?.holder ?? undefined;
  } finally {
    await c.end();
  }
}

test('SIGKILL of the instance sending a delivery: the other sends it with the same webhook-id', async ({ pair, playwright }) => {
  test.setTimeout(120_000);
  const A = await playwright.request.newContext({ baseURL: pair.a.url });
  const made = await (await A.post('/admin/v1/owners', { headers: bearer(pair.a.adminKey), data: { name: 'Hooked' } })).json();
  const key = made.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key as string;
  const hook = await (await A.post('/silo/v1/webhooks', { headers: bearer(key), data: { url: rx.url, types: ['entry.created'] } })).json();
  expect(hook.secret).toMatch(/^whsec_/);
  // the first request is held open (longer than the test); the next is answered at once
  rx.answer = (_, n) => (n === 1 ? { status: 204, delayMs: 600_000 } : { status: 204 });
  await createEntry(A, key, { name: 'Invoice 1' });
  await expect.poll(() => rx.received.length, { timeout: 15_000 }).toBe(1);
  const id = (rx.received[0].headers as Record<string, string>)['webhook-id'];
  const holder = await holderOf(pair.databaseUrl, id);
  expect(holder).toBeTruthy();
  const [sender, other] = pair.a.output().includes(holder as string) ? [pair.a, pair.b] : [pair.b, pair.a];
  expect(other.output()).not.toContain(holder as string);
  expect(sender.output()).toContain(holder as string);

  process.kill(-sender.pid, 'SIGKILL');
  const killedAt = Date.now();
  await expect.poll(() => rx.received.length, { timeout: 60_000, intervals: [500] }).toBe(2);
  const again = rx.received[1];
  expect((again.headers as Record<string, string>)['webhook-id']).toBe(id);
  expect(again.body).toBe(rx.received[0].body);
  expect(new Webhook(hook.secret).verify(again.body, again.headers as Record<string, string>)).toMatchObject({ id, type: 'entry.created' });
  // sent again only after the lease (30 s) lapsed, by the instance still alive
  expect(Date.now() - killedAt).toBeLessThan(45_000);
  const O = await playwright.request.newContext({ baseURL: other.url });
  const list = await (await O.get(`/silo/v1/webhooks/${hook.id}/deliveries`, { headers: bearer(key) })).json();
  expect(list.list[0]).toMatchObject({ event_id: id, state: 'succeeded', attempt_count: 1 });
  expect(rx.received).toHaveLength(2);
  await A.dispose();
  await O.dispose();
});
