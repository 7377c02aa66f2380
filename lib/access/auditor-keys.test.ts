// Auditors' keys on both databases: made with a secret shown once (only its hash kept) and a
// record in the same transaction; listed without secrets; resolved to a read-only principal with
// its period; revoked or expired, unknown (401); each use recorded.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { AuditorKeyInput } from '../schemas/auditor-keys';
import { principalFromBearer } from './authenticate';
import { createAuditorKey } from './create-auditor-key';
import { listAuditorKeys } from './list-auditor-keys';
import { recordAuditorKeyUse } from './record-auditor-key-use';
import { revokeAuditorKey } from './revoke-auditor-key';
import { hashSecret } from './secrets';

const input = (v: object) =>
  AuditorKeyInput.parse({ from: '2025-01-01', to: '2026-01-01', expires_in: 3600, note: 'Tax audit 2025', ...v });

describe('AuditorKeyInput', () => {
  it('wants from before to, expires_in within 1 … 366 days, a note of at most 1,024 characters', () => {
    const bad = (v: object) => AuditorKeyInput.safeParse({ from: '2025-01-01', to: '2026-01-01', expires_in: 60, ...v }).success;
    expect(bad({})).toBe(true);
    expect(bad({ to: '2025-01-01' })).toBe(false);
    expect(bad({ to: '2024-12-31' })).toBe(false);
    expect(bad({ from: '2025-02-30' })).toBe(false);
    expect(bad({ expires_in: 0 })).toBe(false);
    expect(bad({ expires_in: 366 * 86_400 })).toBe(true);
    expect(bad({ expires_in: 366 * 86_400 + 1 })).toBe(false);
    expect(bad({ expires_in: 1.5 })).toBe(false);
    expect(bad({ note: 'x'.repeat(1024) })).toBe(true);
    expect(bad({ note: 'x'.repeat(1025) })).toBe(false);
    expect(bad({ note: 'a\u0000b' })).toBe(false);
  });
});

describe.each(testDatabases())("auditors' keys on %s", (database) => {
  let w: TestWorld;
  beforeAll(async () => (w = await testWorld({ database })));
  afterAll(() => w.close());

  const eventsOf = (ownerId: string, sandbox: boolean) =>
    w.db.prisma.event.findMany({ where: { ownerId, sandbox }, orderBy: { seq: 'asc' } });

  it('is shown once, kept as its hash, recorded in its environment, listed without secrets', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'Audited');
    const target = { ownerId: owner.id, sandbox: true };
    const made = await createAuditorKey({ db, target, input: input({}), actor: TEST_ACTOR });
    expect(made).toMatchObject({ from: '2025-01-01', to: '2026-01-01', note: 'Tax audit 2025', sandbox: true, revoked_at: null });
    expect(made.key).toMatch(/^silo_audit_[A-Za-z0-9_-]{43}$/);
    const row = await db.auditorKey.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.hash).toBe(hashSecret(made.key));
    expect(JSON.stringify(row)).not.toContain(made.key.slice(11));
    expect(Date.parse(made.expires_at) - Date.now()).toBeGreaterThan(3590_000);

    const [event] = await eventsOf(owner.id, true);
    expect(event).toMatchObject({ type: 'auditor_key.created', entryId: null });
    expect(event.data).toEqual({
      key_id: made.id,
      prefix: made.prefix,
      from: '2025-01-01',
      to: '2026-01-01',
      expires_at: made.expires_at,
      note: 'Tax audit 2025',
    });
    expect(await eventsOf(owner.id, false)).toEqual([]);

    const { list } = await listAuditorKeys(db, target);
    expect(list).toEqual([{ ...made, key: undefined }].map(({ key: _, ...k }) => k));
    expect(JSON.stringify(list)).not.toContain(made.key);
    expect((await listAuditorKeys(db, { ownerId: owner.id, sandbox: false })).list).toEqual([]);
  });

  it('resolves to a read-only principal of its workspace, environment and period; its use is a record', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'Used');
    const made = await createAuditorKey({ db, target: { ownerId: owner.id, sandbox: false }, input: input({}), actor: TEST_ACTOR });
    const p = await principalFromBearer(db, made.key);
    expect(p).toEqual({
      kind: 'auditor',
      keyId: made.id,
      ownerId: owner.id,
      sandbox: false,
      period: { start: new Date('2025-01-01T00:00:00Z'), end: new Date('2026-01-01T00:00:00Z') },
      actor: { type: 'auditor_key', id: made.id, name: made.prefix },
    });
    if (p.kind !== 'auditor') throw new Error('not an auditor');
    await recordAuditorKeyUse(db, p, { method: 'GET', path: '/silo/v1/entries' });
    const used = (await eventsOf(owner.id, false)).at(-1);
    expect(used).toMatchObject({ type: 'auditor_key.used', actor: { type: 'auditor_key', id: made.id, name: made.prefix } });
    expect(used?.data).toEqual({ key_id: made.id, method: 'GET', path: '/silo/v1/entries' });
  });

  it('revoked, it is unknown at once (401); revoking again, or from elsewhere, is 404', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'Revoked');
    const other = await createTestOwner(db, 'Other');
    const target = { ownerId: owner.id, sandbox: false };
    const made = await createAuditorKey({ db, target, input: input({}), actor: TEST_ACTOR });
    const elsewhere = [
      { ownerId: other.id, sandbox: false },
      { ownerId: owner.id, sandbox: true },
    ];
    for (const t of elsewhere)
      await expect(revokeAuditorKey({ db, target: t, id: made.id, actor: TEST_ACTOR })).rejects.toMatchObject({
        status: 404,
        key: 'not_found',
      });
    await revokeAuditorKey({ db, target, id: made.id, actor: TEST_ACTOR });
    await expect(principalFromBearer(db, made.key)).rejects.toMatchObject({ status: 401, key: 'unauthorized' });
    await expect(revokeAuditorKey({ db, target, id: made.id, actor: TEST_ACTOR })).rejects.toMatchObject({ status: 404, key: 'not_found' });
    const events = await eventsOf(owner.id, false);
    expect(events.map((e) => e.type)).toEqual(['auditor_key.created', 'auditor_key.revoked']);
    expect(events[1].data).toEqual({ key_id: made.id, prefix: made.prefix });
    const [listed] = (await listAuditorKeys(db, target)).list;
    expect(listed.revoked_at).not.toBeNull();
  });

  it('revoked twice at once: one revocation, one record, the other 404', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'Raced');
    const target = { ownerId: owner.id, sandbox: false };
    const made = await createAuditorKey({ db, target, input: input({}), actor: TEST_ACTOR });
    const both = await Promise.allSettled([1, 2].map(() => revokeAuditorKey({ db, target, id: made.id, actor: TEST_ACTOR })));
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const types = (await eventsOf(owner.id, false)).map((e) => e.type);
    expect(types).toEqual(['auditor_key.created', 'auditor_key.revoked']);
  });

  it('expired, it is unknown (401), like a key that never was', async () => {
    // The clock moved by the test (Date only: the database's timers stay real).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const db = w.db.prisma;
      const owner = await createTestOwner(db, 'Expired');
      const made = await createAuditorKey({
        db,
        target: { ownerId: owner.id, sandbox: false },
        input: input({ expires_in: 1 }),
        actor: TEST_ACTOR,
      });
      const expiresAt = Date.parse(made.expires_at);
      expect(expiresAt - Date.now()).toBe(1000);
      expect((await principalFromBearer(db, made.key)).kind).toBe('auditor');
      vi.setSystemTime(expiresAt - 1);
      expect((await principalFromBearer(db, made.key)).kind).toBe('auditor');
      vi.setSystemTime(expiresAt);
      await expect(principalFromBearer(db, made.key)).rejects.toMatchObject({ status: 401, key: 'unauthorized' });
      await expect(principalFromBearer(db, `${made.key.slice(0, -1)}x`)).rejects.toMatchObject({ status: 401, key: 'unauthorized' });
    } finally {
      vi.useRealTimers();
    }
  });
});
