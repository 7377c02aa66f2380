'use client';
// Environment, search, key and invoice fact filters. The search applies as you type (debounced,
// rewriting the current history step); the key and the facts on submit and the environment on
// change (each a step of its own).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryStep } from '@/lib/console/entry-filter-url';
import type { EntryFilter, FactFilter } from '@/lib/console/hooks/entries';
import { cleanFacts, FactFilterFields } from './FactFilterFields';
import { EnvironmentSelect } from '@/components/ui/EnvironmentSelect';

const SEARCH_DELAY_MS = 300;

/** What the API takes as `q`: trimmed, at most 255 characters (code points, so no pair is split), or nothing. */
const searchTerm = (s: string) => [...s.trim()].slice(0, 255).join('') || undefined;

interface Props {
  value: EntryFilter;
  /** a change of the filter (what is left out stays as asked) */
  onChange(change: Partial<EntryFilter>, step: HistoryStep): void;
}

export function EntryFilters({ value, onChange }: Props) {
  const [key, setKey] = useState(value.key ?? '');
  const [q, setQ] = useState(value.q ?? '');
  const [facts, setFacts] = useState<FactFilter>(value.facts ?? {});
  const factsShown = JSON.stringify(value.facts ?? {});
  // Facts are applied only on submit, so the URL changing them (Back, a link) is always shown.
  useEffect(() => setFacts(JSON.parse(factsShown)), [factsShown]);

  // What this form last asked for: the URL catching up with it is no reason to touch the boxes (the
  // user may have typed on meanwhile); any other change of the filter (Back, a link) is shown in them.
  const asked = useRef({ q: value.q, key: value.key });
  useEffect(() => {
    if (value.q === asked.current.q && value.key === asked.current.key) return;
    asked.current = { q: value.q, key: value.key };
    setQ(value.q ?? '');
    setKey(value.key ?? '');
  }, [value.q, value.key]);
  const ask = useCallback(
    (change: Partial<EntryFilter>, step: HistoryStep) => {
      const was = asked.current;
      asked.current = { q: 'q' in change ? change.q : was.q, key: 'key' in change ? change.key : was.key };
      onChange(change, step);
    },
    [onChange],
  );

  // One request when typing pauses, not one per keystroke. The API takes 1–255 characters.
  useEffect(() => {
    const next = searchTerm(q);
    if (next === value.q) return;
    const t = setTimeout(() => ask({ q: next }, 'replace'), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [q, value.q, ask]);

  return (
    <form
      className="form-inline"
      style={{ marginBottom: '0.9rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        ask({ key: key.trim() || undefined, q: searchTerm(q), facts: cleanFacts(facts) }, 'push');
      }}
    >
      <EnvironmentSelect id="env" sandbox={value.sandbox} onChange={(sandbox) => onChange({ sandbox, folder: undefined }, 'push')} />
      <div className="field" style={{ flex: '2 1 220px' }}>
        <label htmlFor="filter-q">Search</label>
        <input id="filter-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, key or file name" />
      </div>
      <div className="field">
        <label htmlFor="filter-key">Key</label>
        <input id="filter-key" value={key} onChange={(e) => setKey(e.target.value)} placeholder="any" />
      </div>
      <button className="btn" type="submit">
        Filter
      </button>
      <FactFilterFields value={facts} onChange={setFacts} />
    </form>
  );
}
