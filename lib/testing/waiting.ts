// What a test waits for when two calls race on the database: the moment one of them is blocked,
// known from the database itself rather than guessed with a sleep. On PostgreSQL a statement that
// waits for a lock shows in pg_locks; on the embedded database's one connection, held by an open
// transaction, any statement sent waits its turn, so the moment it is sent is enough.
import { vi } from 'vitest';
import type { Db } from '../db/client';
import type { TestWorld } from './database';

/**
 * The client, with `asked` resolving once a first statement goes through it (a raw statement, a
 * transaction or a model's call).
 */
export function watchedClient(db: Db): { db: Db; asked: Promise<void> } {
  let sent!: () => void;
  const asked = new Promise<void>((r) => (sent = r));
  const noting =
    (f: (...args: unknown[]) => unknown, self: object) =>
    (...args: unknown[]) => {
      sent();
      return f.apply(self, args);
    };
  const model = (m: object) =>
    new Proxy(m, {
      get(target, key) {
        const f = Reflect.get(target, key);
        return typeof f === 'function' ? noting(f, target) : f;
      },
    });
  const watched = new Proxy(db, {
    get(target, key) {
      const v = Reflect.get(target, key);
      if (typeof key !== 'string') return v;
      if (/^\$(queryRaw|executeRaw|transaction)/.test(key) && typeof v === 'function') return noting(v, target);
      if (!key.startsWith('$') && !key.startsWith('_') && v && typeof v === 'object') return model(v);
      return v;
    },
  });
  return { db: watched, asked };
}

/**
 * Until a statement of this world's PostgreSQL database waits for a lock another transaction
 * holds, or `work` has ended (then it never waited). The embedded database: until `asked` (a
 * watchedClient's), its one connection being held.
 */
export async function untilBlocked(w: TestWorld, work: Promise<unknown>, asked: Promise<void>): Promise<void> {
  let ended = false;
  void work.then(
    () => (ended = true),
    () => (ended = true),
  );
  if (w.db.kind !== 'postgres')
    return Promise.race([
      asked,
      work.then(
        () => {},
        () => {},
      ),
    ]);
  await vi.waitFor(
    async () => {
      if (ended) return;
      const [{ waiting }] = await w.db.sql.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE d.datname = current_database() AND NOT l.granted`,
      );
      if (!waiting) throw new Error('no statement waits for a lock yet');
    },
    { timeout: 10_000, interval: 20 },
  );
}
