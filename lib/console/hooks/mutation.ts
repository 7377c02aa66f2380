'use client';
// One shape for every console mutation: the hook module says which queries the answer makes stale
// (and refreshes them); the component adds only what it shows (a toast, a dialog, a redirect).
import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';

/** The event log's queries (hooks/events.ts): a prefix of all of them. */
const EVENTS: QueryKey = ['events'];

export interface After<R, V> {
  onSuccess?(result: R, vars: V): void;
  onError?(err: Error): void;
}

export function useApiMutation<R, V = void>(
  mutationFn: (vars: V) => Promise<R>,
  stale: (result: R, vars: V) => QueryKey[],
  after: After<R, V> = {},
) {
  const queries = useQueryClient();
  return useMutation<R, Error, V>({
    mutationFn,
    onSuccess: async (result, vars) => {
      await refreshQueries(queries, stale(result, vars));
      after.onSuccess?.(result, vars);
    },
    onError: after.onError,
  });
}

/**
 * Marks the queries stale and reads the shown ones again, by a read sent after the change.
 * A read already in flight may have been answered before the change: TanStack Query hands a query
 * that has no data yet that read instead of a new one (`cancelRefetch` cancels only once there is
 * data), and the list kept the old answer (issue 20, item 16). So reads in flight are cancelled
 * first (their query reverts to what it had), and the refresh starts a fresh one.
 */
export async function refreshQueries(queries: QueryClient, changed: QueryKey[]) {
  // Every change writes an event record: the activity lists are stale after any of them.
  const keys = [...changed, EVENTS];
  await Promise.all(keys.map((queryKey) => queries.cancelQueries({ queryKey })));
  for (const queryKey of keys) void queries.invalidateQueries({ queryKey });
}
