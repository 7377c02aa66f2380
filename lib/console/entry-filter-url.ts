'use client';
// What the entry list shows lives in the page's URL (?folder=, ?q=, ?key=, ?env=sandbox, and the
// invoice fact filters under the API's names: ?seller_vat=, ?issued_from=, …), so a
// bookmark, a reload and the back button bring the same view back. A deliberate choice (a folder,
// the environment, the filter form) is a new history step; the search typed as you go rewrites the
// current one, so Back skips the keystrokes.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useRef } from 'react';
import { type EntryFilter, FACT_FILTERS, type FactFilter } from './hooks/entries';

/** `push`: a step Back returns to; `replace`: the same step, changed. */
export type HistoryStep = 'push' | 'replace';

const FILTER_PARAMS = ['folder', 'q', 'key', ...FACT_FILTERS, 'env'] as const;

/** The filter a URL's query names; parameters it does not know are ignored. `?folder=` (empty) is a folder. */
export function filterFromParams(params: URLSearchParams): EntryFilter {
  const text = (name: string) => params.get(name) || undefined;
  const facts: FactFilter = {};
  for (const name of FACT_FILTERS) if (text(name)) facts[name] = text(name);
  return {
    sandbox: params.get('env') === 'sandbox',
    folder: params.get('folder') ?? undefined,
    q: text('q'),
    key: text('key'),
    ...(Object.keys(facts).length ? { facts } : {}),
  };
}

/** `params` with the filter's parameters set to `f` (others, such as ?tab=, kept), in one order. */
export function paramsWithFilter(params: URLSearchParams, f: EntryFilter): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const name of FILTER_PARAMS) out.delete(name);
  if (f.folder !== undefined) out.set('folder', f.folder);
  if (f.q) out.set('q', f.q);
  if (f.key) out.set('key', f.key);
  for (const name of FACT_FILTERS) if (f.facts?.[name]) out.set(name, f.facts[name]);
  if (f.sandbox) out.set('env', 'sandbox');
  return out;
}

/**
 * The entry filter of this page's URL, and a change of it written there. A change applies to the
 * last one asked for, not to the filter rendered: a navigation takes a moment, and a second change
 * made meanwhile (a folder, then the key filter) must not undo the first.
 */
export function useEntryFilterInUrl(): [EntryFilter, (change: Partial<EntryFilter>, step: HistoryStep) => void] {
  const router = useRouter();
  const path = usePathname() ?? '';
  const query = (useSearchParams() ?? new URLSearchParams()).toString();
  const filter = useMemo(() => filterFromParams(new URLSearchParams(query)), [query]);
  const asked = useRef<{ from: string; filter: EntryFilter } | undefined>(undefined);
  const change = useCallback(
    (c: Partial<EntryFilter>, step: HistoryStep) => {
      // Asked since the URL last changed: build on that; otherwise on what the URL says.
      const base = asked.current?.from === query ? asked.current.filter : filter;
      const f = { ...base, ...c };
      asked.current = { from: query, filter: f };
      const next = paramsWithFilter(new URLSearchParams(query), f).toString();
      if (next !== query) router[step](next ? `${path}?${next}` : path, { scroll: false });
    },
    [router, path, query, filter],
  );
  return [filter, change];
}
