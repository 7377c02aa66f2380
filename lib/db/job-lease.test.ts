import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld, type TestWorld } from '../testing/database';
import { runExclusively } from './job-lease';

let w: TestWorld;
beforeAll(async () => {
  w = await testWorld();
});
afterAll(() => w.close());

describe('runExclusively', () => {
  it('runs a job once while another holds it, and again after it ends', async () => {
    const db = w.db.prisma;
    let release!: () => void;
    let running!: () => void;
    const holding = new Promise<void>((r) => (running = r));
    const first = runExclusively(db, 'sweep', 60_000, () => {
      running();
      return new Promise<void>((r) => (release = r));
    });
    await holding;
    let ran = false;
    expect(
      await runExclusively(db, 'sweep', 60_000, async () => {
        ran = true;
      }),
    ).toBe(false);
    expect(ran).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(
      await runExclusively(db, 'sweep', 60_000, async () => {
        ran = true;
      }),
    ).toBe(true);
    expect(ran).toBe(true);
  });

  it('takes over a lease whose holder died (expired)', async () => {
    const db = w.db.prisma;
    await db.$executeRaw`INSERT INTO job_leases (name, holder, expires_at) VALUES ('dead', gen_random_uuid(), now() - interval '1 second')`;
    expect(await runExclusively(db, 'dead', 60_000, async () => {})).toBe(true);
  });
});
