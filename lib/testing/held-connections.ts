// Every connection of a database held by a transaction that waits on the test, so that the next
// statement can only wait for one (the embedded database has one connection, PostgreSQL ten).
import { vi, expect } from 'vitest';
import { type Db, POSTGRES_CONNECTIONS } from '../db/client';
import type { TestDatabase } from './database';

export interface HeldConnections {
  /** lets the holding transactions end, and resolves once they have */
  release(): Promise<void>;
}

export async function holdEveryConnection(prisma: Db, kind: TestDatabase): Promise<HeldConnections> {
  let open = () => {};
  const gate = new Promise<void>((r) => (open = r));
  const holders = kind === 'pglite' ? 1 : POSTGRES_CONNECTIONS;
  let started = 0;
  const held = Array.from({ length: holders }, () =>
    prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        started++;
        await gate;
      },
      { timeout: 20_000, maxWait: 20_000 },
    ),
  );
  await vi.waitFor(() => expect(started).toBe(holders));
  return {
    release: async () => {
      open();
      await Promise.all(held);
    },
  };
}
