'use client';
// What the Activity tab shows lives in the page's URL, as the entry list's filter does: ?type= (a
// type of the catalogue), ?entry= (an entry's id) and ?env=sandbox, the environment the entry list
// shares. A value the API would refuse is left out rather than shown as an error.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { EVENT_TYPES } from '../schemas/event-types';
import { isUuid } from '../schemas/uuid';
import type { ActivityFilter } from './hooks/events';

export const isEventType = (t: string): t is keyof typeof EVENT_TYPES => Object.hasOwn(EVENT_TYPES, t);

export function activityFilterFromParams(params: URLSearchParams): ActivityFilter {
  const type = params.get('type') ?? '';
  const entry = params.get('entry') ?? '';
  return {
    sandbox: params.get('env') === 'sandbox',
    type: isEventType(type) ? type : undefined,
    entry: isUuid(entry) ? entry.toLowerCase() : undefined,
  };
}

/** `params` with the filter's parameters set to `f` (others, such as ?tab=, kept). */
export function paramsWithActivityFilter(params: URLSearchParams, f: ActivityFilter): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const name of ['type', 'entry', 'env']) out.delete(name);
  if (f.type) out.set('type', f.type);
  if (f.entry) out.set('entry', f.entry);
  if (f.sandbox) out.set('env', 'sandbox');
  return out;
}

/** The filter of this page's URL, and a change of it as a new history step (Back undoes it). */
export function useActivityFilterInUrl(): [ActivityFilter, (change: Partial<ActivityFilter>) => void] {
  const router = useRouter();
  const path = usePathname() ?? '';
  const query = (useSearchParams() ?? new URLSearchParams()).toString();
  const filter = useMemo(() => activityFilterFromParams(new URLSearchParams(query)), [query]);
  const change = useCallback(
    (c: Partial<ActivityFilter>) => {
      const next = paramsWithActivityFilter(new URLSearchParams(query), { ...filter, ...c }).toString();
      if (next !== query) router.push(next ? `${path}?${next}` : path, { scroll: false });
    },
    [router, path, query, filter],
  );
  return [filter, change];
}
