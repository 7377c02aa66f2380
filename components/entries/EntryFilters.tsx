'use client';
// Environment, search and key filters. The search applies as you type (debounced); the key on submit.
import { useEffect, useState } from 'react';
import type { EntryFilter } from '@/lib/console/hooks/entries';

const SEARCH_DELAY_MS = 300;

/** What the API takes as `q`: trimmed, at most 255 characters (code points, so no pair is split), or nothing. */
const searchTerm = (s: string) => [...s.trim()].slice(0, 255).join('') || undefined;

export function EntryFilters({ value, onChange }: { value: EntryFilter; onChange(f: EntryFilter): void }) {
  const [key, setKey] = useState(value.key ?? '');
  const [q, setQ] = useState(value.q ?? '');

  // One request when typing pauses, not one per keystroke. The API takes 1–255 characters.
  useEffect(() => {
    const next = searchTerm(q);
    if (next === value.q) return;
    const t = setTimeout(() => onChange({ ...value, q: next }), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [q, value, onChange]);

  return (
    <form
      className="form-inline"
      style={{ marginBottom: '0.9rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...value, key: key.trim() || undefined, q: searchTerm(q) });
      }}
    >
      <div className="field" style={{ flex: '0 0 140px' }}>
        <label htmlFor="env">Environment</label>
        <select
          id="env"
          value={value.sandbox ? 'sandbox' : 'live'}
          onChange={(e) => onChange({ ...value, sandbox: e.target.value === 'sandbox', folder: undefined })}
        >
          <option value="live">Live</option>
          <option value="sandbox">Sandbox</option>
        </select>
      </div>
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
    </form>
  );
}
