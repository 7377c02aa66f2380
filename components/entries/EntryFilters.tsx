'use client';
// Environment, folder and key filters; text filters apply on submit, not on every keystroke.
import { useState } from 'react';
import type { EntryFilter } from '@/lib/console/hooks/entries';

export function EntryFilters({ value, onChange }: { value: EntryFilter; onChange(f: EntryFilter): void }) {
  const [folder, setFolder] = useState(value.folder ?? '');
  const [key, setKey] = useState(value.key ?? '');
  return (
    <form
      className="form-inline"
      style={{ marginBottom: '0.9rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...value, folder: folder.trim() || undefined, key: key.trim() || undefined });
      }}
    >
      <div className="field" style={{ flex: '0 0 140px' }}>
        <label htmlFor="env">Environment</label>
        <select
          id="env"
          value={value.sandbox ? 'sandbox' : 'live'}
          onChange={(e) => onChange({ ...value, sandbox: e.target.value === 'sandbox' })}
        >
          <option value="live">Live</option>
          <option value="sandbox">Sandbox</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-folder">Folder</label>
        <input id="filter-folder" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="any" />
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
