// Retention rules and a version's retention (docs/api.md, Retention): every path that stores a
// version gets the latest date its matching rules give (from its store time, or from the end of
// that calendar year in UTC), compliance when any rule is; a create may ask for more, never less;
// a PATCH extends, never shortens; apply_to_existing extends the versions stored before.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Scope } from '../../db/scope';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, SMALL_BLOB_LIMITS, sha256, TEST_FILE_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { RetentionRuleInput } from '../../schemas/retention';
import type { BlobLock } from '../../storage/blob-store';
import { createFile } from '../files/create-file';
import { receiveUpload } from '../files/receive-upload';
import { restoreFile } from '../files/restore-file';
import { updateFile } from '../files/update-file';
import { createdFileRecord, fileRecord } from '../files/file-record';
import { listEntries } from '../list-entries';
import { entryListQuery } from '../../schemas/entries';
import { createRetentionRule, deleteRetentionRule, listRetentionRules } from './retention-rules';
import { setLegalHold } from './set-legal-hold';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const signer = { base: 'http://silo.test', secret: 'x'.repeat(32) };
const YEAR_END = (at: Date) => Date.UTC(at.getUTCFullYear() + 1, 0, 1);
const addYears = (t: number, years: number) => {
  const d = new Date(t);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
};

describe.each(testDatabases())('retention (%s)', (database) => {
  let w: TestWorld;
  let ownerId: string;
  let scope: Scope;
  const locks: [string, BlobLock][] = [];

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, `ret-${database}`)).id;
    scope = { owners: [ownerId], sandbox: false };
    // a store with locks: what lockBlobs asks of it
    w.store.lock = async (hash, lock) => {
      locks.push([hash, lock]);
    };
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const entry = async (folder = '', sandbox = false) =>
    (await db().entry.create({ data: { id: crypto.randomUUID(), ownerId, sandbox, name: 'e', folder } })).id;
  const rule = (input: object, opts: { sandbox?: boolean; apply?: boolean } = {}) =>
    createRetentionRule({
      db: db(),
      store: w.store,
      target: { ownerId, sandbox: opts.sandbox ?? false },
      input: RetentionRuleInput.parse(input),
      applyToExisting: opts.apply ?? false,
      actor: TEST_ACTOR,
    });
  const inline = (entryId: string, data: string, extra: object = {}, limits = TEST_FILE_LIMITS) =>
    createFile({ db: db(), store: w.store, scope, entryId, input: parse({ name: `${data}.txt`, data: b64(data), ...extra }), limits });
  const clearRules = async () => {
    for (const r of (await listRetentionRules(db(), { ownerId, sandbox: false })).list)
      await deleteRetentionRule(db(), { ownerId, sandbox: false }, r.id, TEST_ACTOR);
  };

  it('lists, makes and deletes rules per environment, each change an event', async () => {
    const { rule: made } = await rule({ years: 10, from: 'end_of_year', mode: 'governance', folder: 'invoices/' });
    expect(made).toMatchObject({ years: 10, days: 0, from: 'end_of_year', mode: 'governance', folder: 'invoices' });
    await rule({ years: 1 }, { sandbox: true });
    expect((await listRetentionRules(db(), { ownerId, sandbox: false })).list.map((r) => r.id)).toEqual([made.id]);
    await deleteRetentionRule(db(), { ownerId, sandbox: false }, made.id, TEST_ACTOR);
    await expect(deleteRetentionRule(db(), { ownerId, sandbox: false }, made.id, TEST_ACTOR)).rejects.toMatchObject({ key: 'not_found' });
    // another workspace's rule is not found either
    const other = (await createTestOwner(db(), 'other')).id;
    const sandboxRule = (await listRetentionRules(db(), { ownerId, sandbox: true })).list[0];
    await expect(deleteRetentionRule(db(), { ownerId: other, sandbox: true }, sandboxRule.id, TEST_ACTOR)).rejects.toMatchObject({
      key: 'not_found',
    });
    const types = (await db().event.findMany({ where: { ownerId }, orderBy: { seq: 'asc' } })).map((e) => `${e.sandbox}:${e.type}`);
    expect(types).toEqual(['false:retention_rule.created', 'true:retention_rule.created', 'false:retention_rule.deleted']);
  });

  it('refuses limits ±1: years 0–100, days 0–36,500', () => {
    for (const ok of [{ years: 0 }, { years: 100 }, { days: 0 }, { days: 36_500 }])
      expect(RetentionRuleInput.safeParse(ok).success).toBe(true);
    for (const bad of [
      { years: -1 },
      { years: 101 },
      { days: -1 },
      { days: 36_501 },
      { years: 1.5 },
      { mode: 'legal' },
      { from: 'now' },
      { x: 1 },
    ])
      expect(RetentionRuleInput.safeParse(bad).success).toBe(false);
  });

  it('gives every stored version the latest matching date: inline small, inline large, upload, replacement, restore', async () => {
    await clearRules();
    const e = await entry('invoices/2026');
    await rule({ years: 8, from: 'end_of_year', mode: 'governance' });
    await rule({ days: 10, from: 'stored', mode: 'compliance', category: 'attachment' });
    await rule({ years: 10, from: 'end_of_year', mode: 'governance', folder: 'invoices' });
    await rule({ years: 50, folder: 'invoicesX' }); // not this entry's folder
    await rule({ years: 60, category: 'format' }); // not these files' category
    const expectTenYears = (f: { storedAt: Date | null; retainUntil: Date | null; retentionMode: string | null }) => {
      const stored = f.storedAt as Date;
      expect(f.retainUntil?.getTime()).toBe(addYears(YEAR_END(stored), 10));
      expect(f.retentionMode).toBe('compliance'); // one of the rules is
    };
    const small = (await inline(e, 'small', {}, SMALL_BLOB_LIMITS)).file;
    expectTenYears(small);
    const large = (await inline(e, 'large')).file;
    expectTenYears(large);
    const replaced = (await inline(e, 'small', {}, SMALL_BLOB_LIMITS)).file; // same name: a new version
    expect(replaced.version).toBe(2);
    expectTenYears(replaced);
    const bytes = Buffer.from('uploaded');
    const { file: ph } = await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId: e,
      input: parse({ name: 'up.bin', mime: 'application/octet-stream', size: bytes.length, sha256: sha256(bytes) }),
      limits: TEST_FILE_LIMITS,
    });
    expect(ph.retainUntil).toBeNull();
    const up = await receiveUpload({ db: db(), store: w.store, file: ph, source: [bytes], contentRange: null });
    expect(up.kind).toBe('stored');
    expectTenYears(await db().file.findUniqueOrThrow({ where: { id: ph.id } }));
    const restored = await restoreFile({ db: db(), store: w.store, version: small, actor: null });
    expectTenYears(restored);
    // the record shows it, and the store was asked to lock the blobs
    const record = await fileRecord({ db: db(), signer }, restored);
    expect(record.retention).toEqual({ mode: 'compliance', retain_until: restored.retainUntil?.toISOString() });
    expect(record.legal_hold).toBe(false);
    expect(locks.map(([h]) => h)).toEqual(expect.arrayContaining([small.hash, large.hash, sha256(bytes)]));
    expect(locks.find(([h]) => h === small.hash)?.[1]).toMatchObject({ mode: 'compliance', legalHold: false });
  });

  it('counts from the store time with from: stored; no rule, no retention; the sandbox has its own', async () => {
    await clearRules();
    const e = await entry();
    expect((await inline(e, 'none')).file).toMatchObject({ retainUntil: null, retentionMode: null });
    await rule({ years: 1, days: 2, from: 'stored' });
    const f = (await inline(e, 'stored-from')).file;
    const stored = (f.storedAt as Date).getTime();
    expect(f.retainUntil?.getTime()).toBe(addYears(stored, 1) + 2 * 86_400_000);
    expect(f.retentionMode).toBe('governance');
    const sandboxEntry = await entry('', true);
    const sb = await createFile({
      db: db(),
      store: w.store,
      scope: { owners: [ownerId], sandbox: true },
      entryId: sandboxEntry,
      input: parse({ name: 'sb.txt', data: b64('sb') }),
      limits: TEST_FILE_LIMITS,
    });
    expect(sb.file.retainUntil?.getTime()).toBe(addYears(YEAR_END(sb.file.storedAt as Date), 1)); // the sandbox rule of the first test
  });

  it('takes a longer date asked at create; refuses a shorter one (422) and one in the past', async () => {
    await clearRules();
    const e = await entry();
    await rule({ years: 2, from: 'stored', mode: 'governance' });
    const far = new Date(Date.now() + 5 * 365 * 86_400_000);
    const f = (await inline(e, 'asked', { retain_until: far.toISOString(), retention_mode: 'compliance' })).file;
    expect(f.retainUntil?.getTime()).toBe(far.getTime());
    expect(f.retentionMode).toBe('compliance');
    const near = new Date(Date.now() + 365 * 86_400_000).toISOString();
    await expect(inline(e, 'short', { retain_until: near })).rejects.toMatchObject({
      status: 422,
      key: 'validation',
      fields: { retain_until: expect.any(String) },
    });
    await expect(inline(e, 'past', { retain_until: '2020-01-01T00:00:00Z' })).rejects.toMatchObject({ status: 422 });
    expect(await db().file.count({ where: { name: { in: ['short.txt', 'past.txt'] } } })).toBe(0);
  });

  it('PATCH extends, never shortens, and compliance never becomes governance', async () => {
    await clearRules();
    const e = await entry();
    const f = (await inline(e, 'patch')).file;
    const in2y = new Date(Date.now() + 2 * 365 * 86_400_000);
    const patch = (p: object) => updateFile({ db: db(), file: f, patch: p, actor: TEST_ACTOR });
    const g = await patch({ retain_until: in2y.toISOString() });
    expect(g).toMatchObject({ retainUntil: in2y, retentionMode: 'governance' });
    await expect(patch({ retain_until: new Date(Date.now() + 365 * 86_400_000).toISOString() })).rejects.toMatchObject({ status: 422 });
    const c = await patch({ retention_mode: 'compliance' });
    expect(c).toMatchObject({ retainUntil: in2y, retentionMode: 'compliance' });
    await expect(patch({ retention_mode: 'governance' })).rejects.toMatchObject({ status: 422 });
    const ev = await db().event.findFirst({ where: { fileId: f.id, type: 'file.updated' }, orderBy: { seq: 'asc' } });
    expect(ev?.data).toEqual({
      before: { retain_until: null, retention_mode: null },
      after: { retain_until: in2y.toISOString(), retention_mode: 'governance' },
    });
  });

  it('apply_to_existing extends matching stored versions, never shortens one', async () => {
    await clearRules();
    const e = await entry('archive');
    const old = (await inline(e, 'old')).file;
    const far = new Date(Date.now() + 300 * 365 * 86_400_000);
    const longer = (await inline(e, 'longer', { retain_until: far.toISOString() })).file;
    const { applied } = await rule({ years: 3, from: 'stored', folder: 'archive' }, { apply: true });
    expect(applied).toBe(1);
    const after = await db().file.findUniqueOrThrow({ where: { id: old.id } });
    expect(after.retainUntil?.getTime()).toBe(addYears((old.storedAt as Date).getTime(), 3));
    expect((await db().file.findUniqueOrThrow({ where: { id: longer.id } })).retainUntil).toEqual(far);
  });

  it('?retention=expired lists the entries with a stored version whose date has passed, none held, none deleted', async () => {
    await clearRules();
    const expired = await entry('exp');
    const retained = await entry('exp');
    const held = await entry('exp');
    const none = await entry('exp');
    for (const e of [expired, retained, held]) await inline(e, `v-${e}`, { retain_until: new Date(Date.now() + 86_400_000).toISOString() });
    await inline(none, `v-${none}`);
    await w.db.sql.exec(`UPDATE files SET retain_until = now() - interval '1 second' WHERE entry_id IN ('${expired}', '${held}')`);
    await setLegalHold({ db: db(), store: w.store, scope, entryId: held, input: { hold: true, reason: 'r' }, actor: TEST_ACTOR });
    const list = async () =>
      (
        await listEntries({
          db: db(),
          target: { ownerId, sandbox: false },
          query: entryListQuery(100).parse({ retention: 'expired', folder: 'exp' }),
        })
      ).list.map((e) => e.id);
    expect(await list()).toEqual([expired]);
    // the clock, not a write, expires the next one: no cached page hides it
    await w.db.sql.exec(`UPDATE files SET retain_until = now() + interval '300 milliseconds' WHERE entry_id = '${retained}'`);
    expect(await list()).toEqual([expired]);
    // until the database's clock has passed it (then at once, not by the next write)
    await vi.waitFor(
      async () => {
        const [{ passed }] = await w.db.sql.query<{ passed: boolean }>(
          `SELECT bool_and(retain_until <= now()) AS passed FROM files WHERE entry_id = '${retained}'`,
        );
        expect(passed).toBe(true);
      },
      { timeout: 5_000, interval: 20 },
    );
    // both, in either order: entries made in the same millisecond tie on created_at, then go by id
    expect((await list()).sort()).toEqual([retained, expired].sort());
    expect(await db().file.count({ where: { entryId: { in: [expired, retained, held] } } })).toBe(3);
  });

  it('each earlier version in `previous` shows its retention and hold, the cached history too, after an extension or a hold', async () => {
    await clearRules();
    const e = await entry();
    const version = async (n: number) => {
      const made = await inline(e, 'hist', { desc: `v${n}` }, SMALL_BLOB_LIMITS); // same name: a new version each time
      const created = await createdFileRecord({ db: db(), signer }, made);
      const text = 'text' in created ? Buffer.concat(created.text).toString() : JSON.stringify(created.record);
      expect(text).toBe(JSON.stringify(await fileRecord({ db: db(), signer }, made.file)));
      return { file: made.file, record: JSON.parse(text) };
    };
    const v1 = (await version(1)).file;
    expect((await version(2)).record.previous[0]).toMatchObject({ id: v1.id, retention: null, legal_hold: false });
    const until = new Date(Date.now() + 3 * 365 * 86_400_000);
    await updateFile({ db: db(), file: v1, patch: { retain_until: until.toISOString() }, actor: TEST_ACTOR });
    const v3 = await version(3);
    expect(v3.record.previous.at(-1)).toMatchObject({ id: v1.id, retention: { mode: 'governance', retain_until: until.toISOString() } });
    await setLegalHold({ db: db(), store: w.store, scope, entryId: e, input: { hold: true, reason: 'r' }, actor: TEST_ACTOR });
    const v4 = await version(4);
    expect(v4.record.legal_hold).toBe(true);
    expect(v4.record.previous.map((p: { legal_hold: boolean }) => p.legal_hold)).toEqual([true, true, true]);
  });
});
