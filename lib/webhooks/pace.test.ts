// The engine's pace (pace.ts): flat out while the instance's requests leave room, BUSY_RATE
// attempts a second while they keep it busy, with no flapping at the edge and no burst when it
// turns busy.
import { describe, expect, it } from 'vitest';
import { BUSY_IN_FLIGHT, BUSY_RATE, BUSY_ROUND_MS, CALM_IN_FLIGHT, pace, WINDOW_MS } from './pace';

/** More than a window. */
const W = WINDOW_MS + 50;

/** A clock and a request load the test moves: `inFlight` requests on average through each step. */
function world() {
  let t = 1_000;
  let load = 0;
  return {
    clock: () => t,
    load: () => load,
    step(ms: number, inFlight: number) {
      t += ms;
      load += ms * inFlight;
    },
  };
}

describe('the webhook engine’s pace', () => {
  it('sends everything it may while requests leave room', () => {
    const w = world();
    const p = pace(w);
    for (let i = 0; i < 20; i++) {
      w.step(100, BUSY_IN_FLIGHT - 1);
      expect(p.busy()).toBe(false);
      expect(p.take(64)).toBe(64);
    }
  });

  it(`makes ${BUSY_RATE} attempts a second while requests keep ${BUSY_IN_FLIGHT} or more in flight`, () => {
    const w = world();
    const p = pace(w);
    w.step(W, 32);
    expect(p.busy()).toBe(true);
    // no burst on turning busy: the first round waits for its tokens
    expect(p.take(64)).toBe(0);
    let sent = 0;
    for (let round = 0; round < 50; round++) {
      w.step(BUSY_ROUND_MS, 32);
      const n = p.take(64);
      // a round at most a round's worth
      expect(n).toBeLessThanOrEqual((BUSY_RATE * BUSY_ROUND_MS) / 1000);
      sent += n;
    }
    // 50 rounds of 200 ms: 10 s
    expect(sent).toBeGreaterThanOrEqual(BUSY_RATE * 10 - 1);
    expect(sent).toBeLessThanOrEqual(BUSY_RATE * 10);
  });

  it('saves up no more than a round while it is asked for less', () => {
    const w = world();
    const p = pace(w);
    w.step(W, 32);
    expect(p.busy()).toBe(true);
    w.step(5_000, 32);
    expect(p.take(64)).toBe((BUSY_RATE * BUSY_ROUND_MS) / 1000);
    expect(p.take(64)).toBe(0);
  });

  it(`stays busy down to ${CALM_IN_FLIGHT} in flight, and sends flat out below`, () => {
    const w = world();
    const p = pace(w);
    w.step(W, BUSY_IN_FLIGHT);
    expect(p.busy()).toBe(true);
    w.step(W, CALM_IN_FLIGHT);
    expect(p.busy()).toBe(true);
    w.step(W, CALM_IN_FLIGHT - 0.5);
    expect(p.busy()).toBe(false);
    expect(p.take(64)).toBe(64);
    // and from calm, what was busy's lower edge is not enough to turn busy again
    w.step(W, CALM_IN_FLIGHT + 1);
    expect(p.busy()).toBe(false);
  });

  it(`turns busy the moment ${BUSY_IN_FLIGHT} requests are in flight, and calm only by a window's average`, () => {
    const w = world();
    let now = 0;
    const p = pace({ ...w, inFlight: () => now });
    w.step(W, 0);
    expect(p.busy()).toBe(false);
    now = BUSY_IN_FLIGHT;
    expect(p.busy()).toBe(true);
    // no tokens saved from before
    expect(p.take(64)).toBe(0);
    // the moment passes, the window's average decides
    now = 0;
    w.step(W, CALM_IN_FLIGHT);
    expect(p.busy()).toBe(true);
    w.step(W, 0);
    expect(p.busy()).toBe(false);
  });

  it('judges calm by a whole window, not the moment: a short burst of requests changes nothing', () => {
    const w = world();
    const p = pace(w);
    w.step(W, 0);
    expect(p.busy()).toBe(false);
    // within one window the state read last holds
    w.step(WINDOW_MS / 2, 100);
    expect(p.busy()).toBe(false);
    // the window's average: half at 100, half at 0 → 50 in flight
    w.step(WINDOW_MS / 2, 0);
    expect(p.busy()).toBe(true);
  });
});
