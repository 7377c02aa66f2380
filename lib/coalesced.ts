// One call in flight at a time, and every caller answered by a call that began after it asked.

/**
 * `query()`, with calls that arrive while one is in flight answered together by the next one, sent
 * as soon as that one returns: every caller gets an answer to a query sent after it called, and at
 * most one query is in flight, however many readers wait.
 */
export function coalesced<T>(query: () => Promise<T>): () => Promise<T> {
  let sending: Promise<T> | undefined;
  let waiting: Promise<T> | undefined;
  const send = () => {
    const p = query();
    sending = p;
    const settled = () => {
      if (sending === p) sending = undefined;
    };
    p.then(settled, settled);
    return p;
  };
  return () => {
    if (!sending) return send();
    const before = sending;
    waiting ??= before
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        waiting = undefined;
        return send();
      });
    return waiting;
  };
}
