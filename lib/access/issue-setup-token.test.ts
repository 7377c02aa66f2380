// The setup link while no administrator exists: one link out at a time, never replaced by another
// instance's start (two instances on one database), printed again by its issuer, one-time and
// expiring; racing starts issue exactly one. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { testDatabases, testWorld } from '../testing/database';
import { completeSetup } from './complete-setup';
import { issueSetupToken, SETUP_LINK_TTL_MS, setupTokenValid } from './issue-setup-token';

const worlds: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of worlds) await close();
});

async function open(kind: (typeof KINDS)[number]): Promise<Db> {
  const w = await testWorld({ database: kind });
  worlds.push(() => w.close());
  return w.db.prisma;
}

const KINDS = testDatabases();
const later = (ms: number) => new Date(Date.now() + ms);
const user = (admin: boolean) => ({ id: randomUUID(), email: `${randomUUID()}@example.com`, passwordHash: 'x', admin });

describe.each(KINDS)('issueSetupToken on %s', (kind) => {
  it("a second instance's start leaves the first's link valid and says it is out", async () => {
    const db = await open(kind);
    const first = await issueSetupToken(db);
    expect(first?.kind).toBe('yours');
    const second = await issueSetupToken(db);
    expect(second).toMatchObject({ kind: 'elsewhere', expiresAt: first?.expiresAt });
    expect(await setupTokenValid(db, first?.kind === 'yours' ? first.token : '')).toBe(true);
  });

  it('the issuer starting again prints the same link, as long as it is valid', async () => {
    const db = await open(kind);
    const first = await issueSetupToken(db);
    if (first?.kind !== 'yours') throw new Error('no link');
    expect(await issueSetupToken(db, { kept: first.token })).toEqual(first);
    // A kept token that is not the one out is no credential.
    expect((await issueSetupToken(db, { kept: 'forged' }))?.kind).toBe('elsewhere');
  });

  it('a link expires: refused after its lifetime, and the next start issues a new one', async () => {
    const db = await open(kind);
    const first = await issueSetupToken(db);
    if (first?.kind !== 'yours') throw new Error('no link');
    const after = later(SETUP_LINK_TTL_MS + 1000);
    expect(await setupTokenValid(db, first.token, after)).toBe(false);
    const next = await issueSetupToken(db, { kept: first.token, now: after });
    expect(next?.kind).toBe('yours');
    expect(next?.kind === 'yours' && next.token).not.toBe(first.token);
    expect(await setupTokenValid(db, first.token, after)).toBe(false);
  });

  it('10 instances starting at once: exactly one issues the link, the rest point at it', async () => {
    const db = await open(kind);
    const links = await Promise.all(Array.from({ length: 10 }, () => issueSetupToken(db)));
    const yours = links.filter((l) => l?.kind === 'yours');
    expect(yours).toHaveLength(1);
    expect(links.filter((l) => l?.kind === 'elsewhere')).toHaveLength(9);
    expect(await setupTokenValid(db, yours[0]?.kind === 'yours' ? yours[0].token : '')).toBe(true);
  });

  it('only while no administrator exists; spent once used', async () => {
    const db = await open(kind);
    await db.user.create({ data: user(false) });
    const link = await issueSetupToken(db);
    if (link?.kind !== 'yours') throw new Error('a member without an administrator still needs the link');
    await completeSetup({ db, token: link.token, user: { email: 'first@example.com', name: 'F', password: 'a long password' } });
    expect(await setupTokenValid(db, link.token)).toBe(false);
    expect(await issueSetupToken(db, { kept: link.token })).toBeUndefined();
  });
});
