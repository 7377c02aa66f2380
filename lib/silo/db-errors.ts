// Recognising database outcomes without leaking them: unique violations, JSON equality.

/** Prisma's P2002, optionally on a constraint that involves `field`. */
export function isUniqueViolation(err: unknown, field?: string): boolean {
  const e = err as { code?: string; meta?: { target?: unknown; driverAdapterError?: unknown } };
  if (e?.code !== 'P2002') return false;
  if (!field) return true;
  return JSON.stringify(e.meta ?? {}).includes(field);
}

/** Deep equality of JSON values with object keys in any order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
