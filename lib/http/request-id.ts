import { randomUUID } from 'node:crypto';

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a caller's X-Request-Id when it is a sane token, else makes one (docs/api.md, Errors). */
export function requestIdFrom(value: string | null | undefined): string {
  return value && SAFE.test(value) ? value : randomUUID();
}
