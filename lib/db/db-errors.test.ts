// Unique violations recognised by exact constraint name, on PGlite and (with TEST_DATABASE_URL)
// on PostgreSQL, whose drivers report them differently; and the races that rely on it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../access/create-app';
import { authorizeEnrollment } from '../access/authorize-enrollment';
import { createOwner } from '../access/create-owner';
import { createUser } from '../access/create-user';
import type { Database } from './client';
import { testDatabases, testWorld } from '../testing/database';
import { UNIQUE, isUniqueViolation, type UniqueConstraint } from './db-errors';
import { createEntry } from '../silo/create-entry';
import { TEST_ACTOR } from '../testing/actor';

const ALL = Object.values(UNIQUE) as UniqueConstraint[];
const violated = (err: unknown) => ALL.filter((c) => isUniqueViolation(err, c)).map((c) => c.name);

const databases = testDatabases();

describe.each(databases)('on %s', (kind) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const w = await testWorld({ database: kind });
    ({ db } = w);
    drop = () => w.close();
  });
  afterAll(() => drop());

  it('names the one constraint violated: an id is not a key, though "entries_pkey" contains "key"', async () => {
    const p = db.prisma;
    const owner = await createOwner(p, 'A', TEST_ACTOR);
    const e = await p.entry.create({ data: { id: randomUUID(), ownerId: owner.id, sandbox: false, key: 'k' } });
    const sameId = await p.entry.create({ data: { id: e.id, ownerId: owner.id, sandbox: false, key: 'other' } }).catch((x) => x);
    expect(violated(sameId)).toEqual([UNIQUE.entryId.name]);
    const sameKey = await p.entry.create({ data: { id: randomUUID(), ownerId: owner.id, sandbox: false, key: 'k' } }).catch((x) => x);
    expect(violated(sameKey)).toEqual([UNIQUE.entryKey.name]);
    const email = `a-${randomUUID()}@example.com`;
    const user = { email, passwordHash: 'x' };
    await p.user.create({ data: { id: randomUUID(), ...user } });
    expect(violated(await p.user.create({ data: { id: randomUUID(), ...user } }).catch((x) => x))).toEqual([UNIQUE.userEmail.name]);
    expect(violated(new Error('P2002'))).toEqual([]);
  });

  it('20 concurrent PUTs of one entry id with a key: one creates, nineteen repeat it', async () => {
    const p = db.prisma;
    const owner = await createOwner(p, 'B', TEST_ACTOR);
    const target = { ownerId: owner.id, sandbox: false };
    for (let round = 0; round < 10; round++) {
      const id = randomUUID();
      const input = { key: `inv-${round}`, folder: 'f', name: 'n', meta: { a: '1' } };
      const results = await Promise.all(Array.from({ length: 20 }, () => createEntry({ actor: TEST_ACTOR, db: p, target, input, id })));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => JSON.stringify(r.entry))).size).toBe(1);
    }
    // A different id with a taken key is still refused.
    const clash = await createEntry({
      actor: TEST_ACTOR,
      db: p,
      target,
      input: { key: 'inv-0', folder: '', name: '', meta: {} },
      id: randomUUID(),
    }).catch((e) => e);
    expect(clash.key).toBe('conflict');
    expect(clash.message).toMatch(/already has the key/);
  });

  it('racing creations of one user email: one is created, the others answer 409', async () => {
    const input = { email: `race-${randomUUID()}@example.com`, name: '', password: 'long enough', admin: false, owner_ids: [] };
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => createUser(db.prisma, input)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason.key).toBe('conflict');
  });

  it('racing first authorizations of one app and owner share one enrollment', async () => {
    const p = db.prisma;
    const owner = await createOwner(p, 'C', TEST_ACTOR);
    const made = await createApp(p, { name: 'App', trusted: true });
    const app = await p.app.findUniqueOrThrow({ where: { id: made.id } });
    const got = await Promise.all(
      Array.from({ length: 10 }, () => authorizeEnrollment(p, { app, ownerId: owner.id, tokenTtlSeconds: 60 })),
    );
    expect(new Set(got.map((g) => g.id)).size).toBe(1);
  });
});
