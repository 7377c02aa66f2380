// The embedded database runs every statement on the server's one thread, synchronously, and
// PGlite starts the next queued statement as soon as one ends, without going back to the event
// loop: under load, 32 requests' statements ran as one block of ~100 ms, and nothing else ran in
// it, not even the accept of a new connection or the read of a request. A new connection waited
// for several such blocks (its accept, then its read: 0.3 s each under the benchmark's load, over
// a second for the first requests of a burst of connections; bench/small-requests.ts). So, a few
// statements per turn of the event loop: the rest wait for the next turn, after Node has polled
// its sockets (a new file's p99 under load 0.65–1 s → 0.34 s, its throughput unchanged). The wait
// holds nothing PGlite holds (a transaction's own statements are not counted), so it cannot
// deadlock.
import type { PGlite } from '@electric-sql/pglite';

/** How many statements start in one turn of the event loop before it may poll its sockets. */
export const STATEMENTS_PER_TURN = 6;

/** Makes `lite.query` start at most `perTurn` statements per turn of the event loop. */
export function takeTurns(lite: PGlite, perTurn = STATEMENTS_PER_TURN): PGlite {
  const query = lite.query.bind(lite);
  let started = 0;
  let next: Promise<void> | null = null;
  const nextTurn = () => {
    next ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        next = null;
        started = 0;
        resolve();
      }),
    );
    return next;
  };
  lite.query = (async (...args: Parameters<PGlite['query']>) => {
    while (started >= perTurn) await nextTurn();
    started++;
    return query(...args);
  }) as PGlite['query'];
  return lite;
}
