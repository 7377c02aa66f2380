'use client';
// One shape for every console mutation: the hook module says which queries the answer makes stale
// (and refreshes them); the component adds only what it shows (a toast, a dialog, a redirect).
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

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
    onSuccess: (result, vars) => {
      for (const queryKey of stale(result, vars)) queries.invalidateQueries({ queryKey });
      after.onSuccess?.(result, vars);
    },
    onError: after.onError,
  });
}
