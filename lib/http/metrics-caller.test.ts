// Who reads the metrics: METRICS_TOKEN when it is set (and then only it), else the admin key;
// 401 without credentials, 403 with others, and nobody while neither is set.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../config';
import { assertMetricsCaller } from './metrics-caller';

const METRICS = 'metrics-token-0123456789';
const ADMIN = 'admin-key-0123456789abc';

function refusal(authorization?: string): number | undefined {
  const headers = new Headers(authorization ? { authorization } : {});
  try {
    assertMetricsCaller(headers);
    return undefined;
  } catch (err) {
    return (err as { status: number }).status;
  }
}

function configured(env: { METRICS_TOKEN?: string; ADMIN_API_KEY?: string }) {
  vi.stubEnv('METRICS_TOKEN', env.METRICS_TOKEN);
  vi.stubEnv('ADMIN_API_KEY', env.ADMIN_API_KEY);
  resetConfig();
}

describe('the metrics caller', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfig();
  });

  it('with METRICS_TOKEN: only it (the admin key is 403), 401 without credentials', () => {
    configured({ METRICS_TOKEN: METRICS, ADMIN_API_KEY: ADMIN });
    expect(refusal(`Bearer ${METRICS}`)).toBeUndefined();
    expect(refusal(`bearer ${METRICS}`)).toBeUndefined();
    expect(refusal(`Bearer ${ADMIN}`)).toBe(403);
    expect(refusal(`Bearer ${METRICS}x`)).toBe(403);
    expect(refusal(`Bearer ${METRICS.slice(0, -1)}`)).toBe(403);
    expect(refusal()).toBe(401);
    expect(refusal('Basic abc')).toBe(401);
  });

  it('without it: the admin key', () => {
    configured({ ADMIN_API_KEY: ADMIN });
    expect(refusal(`Bearer ${ADMIN}`)).toBeUndefined();
    expect(refusal(`Bearer ${METRICS}`)).toBe(403);
    expect(refusal()).toBe(401);
  });

  it('with neither: nobody', () => {
    configured({});
    expect(refusal(`Bearer ${ADMIN}`)).toBe(403);
    expect(refusal()).toBe(401);
  });
});
