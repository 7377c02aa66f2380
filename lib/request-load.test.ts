// The request load the background yields to (request-load.mjs): requests in flight count as they
// go (a stalled instance reads as loaded, not calm), each for at most a second, and the sum never
// goes back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_CAP_MS, requestEnded, requestMsSoFar, requestStarted } from './request-load.mjs';

describe('the request load', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts requests in flight as they go, and what ended', () => {
    const before = requestMsSoFar();
    const a = requestStarted();
    const b = requestStarted();
    vi.advanceTimersByTime(100);
    // nothing ended yet: the two open ones count already
    expect(requestMsSoFar() - before).toBeCloseTo(200);
    requestEnded(a);
    vi.advanceTimersByTime(50);
    expect(requestMsSoFar() - before).toBeCloseTo(250);
    requestEnded(b);
    requestEnded(b); // twice changes nothing
    vi.advanceTimersByTime(1000);
    expect(requestMsSoFar() - before).toBeCloseTo(250);
  });

  it(`counts one request for at most ${REQUEST_CAP_MS} ms, open or ended, and never goes back`, () => {
    const before = requestMsSoFar();
    const long = requestStarted();
    let last = 0;
    for (let i = 0; i < 30; i++) {
      vi.advanceTimersByTime(100);
      const now = requestMsSoFar() - before;
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    expect(last).toBeCloseTo(REQUEST_CAP_MS);
    requestEnded(long);
    expect(requestMsSoFar() - before).toBeCloseTo(REQUEST_CAP_MS);
  });
});
