// principalFromBearer: the author a version records (actor) comes with the credential, in the one
// query that resolves it; no secret in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { testWorld, type TestWorld } from '../testing/database';
import { principalFromBearer } from './authenticate';
import { authorizeEnrollment } from './authorize-enrollment';
import { createApp } from './create-app';
import { createOwner } from './create-owner';
import { verifyClient } from './verify-client';
import { TEST_ACTOR } from '../testing/actor';

let w: TestWorld;
beforeAll(async () => (w = await testWorld()));
afterAll(() => w.close());

/** The database with every model call counted. */
function counting(db: Db) {
  let calls = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      const model = Reflect.get(target, prop, receiver);
      if (!model || typeof model !== 'object') return model;
      return new Proxy(model, {
        get(m, fn) {
          const f = Reflect.get(m, fn);
          if (typeof f !== 'function') return f;
          return (...args: unknown[]) => {
            calls++;
            return f.apply(m, args);
          };
        },
      });
    },
  });
  return { db: proxy, calls: () => calls };
}

describe('principalFromBearer', () => {
  it('an owner key is its id and prefix, an enrollment token its app; one query each', async () => {
    const db = w.db.prisma;
    const owner = await createOwner(db, 'Authors', TEST_ACTOR);
    const live = owner.api_keys.find((k) => !k.sandbox);
    const listed = await db.apiKey.findUniqueOrThrow({ where: { id: live?.id } });
    const byKey = counting(db);
    const p = await principalFromBearer(byKey.db, live?.key ?? '');
    expect(p).toMatchObject({ kind: 'owner', via: 'api_key', actor: { type: 'owner_key', id: listed.id, name: listed.prefix } });
    expect(byKey.calls()).toBe(1);

    const made = await createApp(db, { name: 'Invoicer', trusted: true });
    const app = await verifyClient({ db, clientId: made.client_id, secret: made.client_secret });
    const { token } = await authorizeEnrollment(db, { app, ownerId: owner.id, tokenTtlSeconds: 60 });
    const byToken = counting(db);
    const t = await principalFromBearer(byToken.db, token);
    expect(t).toMatchObject({ kind: 'owner', via: 'enrollment', actor: { type: 'app', id: made.id, name: 'Invoicer' } });
    expect(byToken.calls()).toBe(1);
    // plain and serializable: a cache may keep it as JSON
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
    expect(JSON.stringify([p, t])).not.toContain(live?.key);
    expect(JSON.stringify(t)).not.toContain(token);
  });
});
