// Authorization rules of docs/api.md (Credentials, Authorize), without a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld, type TestWorld } from '../testing/database';
import { createApp } from './create-app';
import { verifyClient } from './verify-client';
import { principalFromBearer } from './authenticate';
import { authorizeEnrollment } from './authorize-enrollment';
import { createEnrollment } from './create-enrollment';
import { createOwner } from './create-owner';
import { TEST_ACTOR } from '../testing/actor';

let w: TestWorld;
beforeAll(async () => (w = await testWorld()));
afterAll(() => w.close());

describe('authorizeEnrollment', () => {
  it('needs a trusted app or the owner key; keys of other owners are refused', async () => {
    const db = w.db.prisma;
    const owner = await createOwner(db, 'A', TEST_ACTOR);
    const other = await createOwner(db, 'B', TEST_ACTOR);
    const made = await createApp(db, { name: 'app', trusted: false });
    const app = await verifyClient({ db, clientId: made.client_id, secret: made.client_secret });
    const base = { app, ownerId: owner.id, tokenTtlSeconds: 60 };
    await expect(authorizeEnrollment(db, base)).rejects.toMatchObject({ key: 'forbidden' });
    await expect(authorizeEnrollment(db, { ...base, ownerKey: other.api_keys[0].key })).rejects.toMatchObject({ key: 'forbidden' });
    const sandbox = await authorizeEnrollment(db, { ...base, ownerKey: owner.api_keys[1].key });
    expect(sandbox.sandbox).toBe(true);
    const p = await principalFromBearer(db, sandbox.token);
    expect(p).toEqual({
      kind: 'owner',
      ownerId: owner.id,
      sandbox: true,
      via: 'enrollment',
      actor: { type: 'app', id: made.id, name: 'app' },
    });
  });

  it('an enrollment made by an administrator needs no owner key, in its environment only, while enabled', async () => {
    const db = w.db.prisma;
    const owner = await createOwner(db, 'D', TEST_ACTOR);
    const other = await createOwner(db, 'E', TEST_ACTOR);
    const made = await createApp(db, { name: 'enrolled', trusted: false });
    const app = await verifyClient({ db, clientId: made.client_id, secret: made.client_secret });
    const base = { app, ownerId: owner.id, tokenTtlSeconds: 60 };
    await expect(authorizeEnrollment(db, base)).rejects.toMatchObject({ key: 'forbidden' });
    const { created, record } = await createEnrollment(db, { app_id: app.id, owner_id: owner.id, sandbox: false }, TEST_ACTOR);
    expect(created).toBe(true);
    expect((await createEnrollment(db, { app_id: app.id, owner_id: owner.id, sandbox: false }, TEST_ACTOR)).created).toBe(false);
    const ok = await authorizeEnrollment(db, base);
    expect([ok.id, ok.sandbox]).toEqual([record.id, false]);
    await expect(authorizeEnrollment(db, { ...base, sandbox: true })).rejects.toMatchObject({ key: 'forbidden' });
    await expect(authorizeEnrollment(db, { ...base, ownerId: other.id })).rejects.toMatchObject({ key: 'forbidden' });
    await db.enrollment.update({ where: { id: record.id }, data: { disabled: true } });
    await expect(authorizeEnrollment(db, base)).rejects.toMatchObject({ key: 'enrollment_disabled' });
  });

  it('tokens expire and die with a disabled enrollment', async () => {
    const db = w.db.prisma;
    const owner = await createOwner(db, 'C', TEST_ACTOR);
    const made = await createApp(db, { name: 'trusted', trusted: true });
    const app = await verifyClient({ db, clientId: made.client_id, secret: made.client_secret });
    const e = await authorizeEnrollment(db, { app, ownerId: owner.id, tokenTtlSeconds: 60 });
    await db.enrollment.update({ where: { id: e.id }, data: { disabled: true } });
    await expect(principalFromBearer(db, e.token)).rejects.toMatchObject({ key: 'enrollment_disabled' });
    await db.enrollment.update({ where: { id: e.id }, data: { disabled: false } });
    await db.enrollmentToken.updateMany({ where: { enrollmentId: e.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(principalFromBearer(db, e.token)).rejects.toMatchObject({ key: 'token_expired' });
  });

  it('refuses wrong secrets and unknown client ids alike', async () => {
    const db = w.db.prisma;
    const made = await createApp(db, { name: 'x', trusted: false });
    const a = await verifyClient({ db, clientId: made.client_id, secret: 'wrong' }).catch((e) => e);
    const b = await verifyClient({ db, clientId: 'app_unknown', secret: made.client_secret }).catch((e) => e);
    expect(a.key).toBe('unauthorized');
    expect(b.message).toBe(a.message);
  });
});
