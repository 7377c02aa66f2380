// Sign-in limits: failures lock an account for unknown browsers only, never its known device;
// concurrent guesses cannot slip past the limit together.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld, type TestWorld } from '../../testing/database';
import { FAILURES_PER_ACCOUNT, FAILURES_PER_ADDRESS, withinSignInLimits } from './sign-in-limit';

const wrong = async () => undefined;
const right = async () => ({ id: 'u' });

// The counters live in the database (every instance counts together).
let w: TestWorld;
beforeAll(async () => {
  w = await testWorld();
});
afterAll(() => w.close());

describe('withinSignInLimits', () => {
  it('locks an account for unknown browsers after its failures, right password included', async () => {
    const email = `${randomUUID()}@example.com`;
    for (let i = 0; i < FAILURES_PER_ACCOUNT; i++)
      expect(await withinSignInLimits({ email, address: `198.51.100.${i}` }, wrong)).toBeUndefined();
    await expect(withinSignInLimits({ email, address: '203.0.113.1' }, right)).rejects.toThrow(/^Too many attempts; try again in 15 min$/);
    // the owner's browser, known to the account, is not locked by them
    expect(await withinSignInLimits({ email, address: '203.0.113.1', device: 'dev1' }, right)).toEqual({ id: 'u' });
  });

  it('successes do not count; concurrent guesses stop at the limit', async () => {
    const email = `${randomUUID()}@example.com`;
    for (let i = 0; i < 3 * FAILURES_PER_ACCOUNT; i++) await withinSignInLimits({ email, address: '192.0.2.1' }, right);
    // Each check (the slow password check) waits until all 40 guesses are in a check or refused:
    // every one of them is in flight together.
    const GUESSES = 40;
    let checked = 0;
    let refused = 0;
    let allIn!: () => void;
    const together = new Promise<void>((r) => (allIn = r));
    const arrived = () => checked + refused === GUESSES && allIn();
    const slow = async () => {
      checked += 1;
      arrived();
      await together;
      return undefined;
    };
    const guess = () =>
      withinSignInLimits({ email, address: '192.0.2.2' }, slow).catch((err) => {
        refused += 1;
        arrived();
        throw err;
      });
    const results = await Promise.allSettled(Array.from({ length: GUESSES }, guess));
    expect(checked).toBe(FAILURES_PER_ACCOUNT);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(GUESSES - FAILURES_PER_ACCOUNT);
  });

  it('locks an address spraying many accounts', async () => {
    const address = `10.${Math.floor(Math.random() * 250)}.0.1`;
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) await withinSignInLimits({ email: `${randomUUID()}@example.com`, address }, wrong);
    await expect(withinSignInLimits({ email: `${randomUUID()}@example.com`, address }, right)).rejects.toThrow(/Too many attempts/);
  });
});
