'use client';
// The Activity tab's filters: environment and type apply on change, the entry id on submit (each a
// step of the URL's history).
import { useEffect, useState } from 'react';
import { EVENT_TYPES } from '@/lib/schemas/event-types';
import type { ActivityFilter } from '@/lib/console/hooks/events';
import { isUuid } from '@/lib/schemas/uuid';
import { EnvironmentSelect } from '@/components/ui/EnvironmentSelect';

interface Props {
  value: ActivityFilter;
  onChange(change: Partial<ActivityFilter>): void;
}

export function ActivityFilters({ value, onChange }: Props) {
  const [entry, setEntry] = useState(value.entry ?? '');
  const [invalid, setInvalid] = useState(false);
  // The URL changed (Back, a row's "only" button): show what it says.
  useEffect(() => {
    setEntry(value.entry ?? '');
    setInvalid(false);
  }, [value.entry]);
  return (
    <form
      className="form-inline"
      style={{ marginBottom: '0.9rem' }}
      onSubmit={(e) => {
        e.preventDefault();
        const id = entry.trim();
        if (id && !isUuid(id)) return setInvalid(true);
        setInvalid(false);
        onChange({ entry: id ? id.toLowerCase() : undefined });
      }}
    >
      <EnvironmentSelect id="activity-env" sandbox={value.sandbox} onChange={(sandbox) => onChange({ sandbox, entry: undefined })} />
      <div className="field" style={{ flex: '1 1 200px' }}>
        <label htmlFor="activity-type">Type</label>
        <select id="activity-type" value={value.type ?? ''} onChange={(e) => onChange({ type: e.target.value || undefined })}>
          <option value="">All types</option>
          {Object.entries(EVENT_TYPES).map(([type, what]) => (
            <option key={type} value={type} title={what}>
              {type}
            </option>
          ))}
        </select>
      </div>
      <div className="field" style={{ flex: '2 1 300px' }}>
        <label htmlFor="activity-entry">Entry id</label>
        <input
          id="activity-entry"
          className="mono"
          value={entry}
          onChange={(e) => setEntry(e.target.value)}
          placeholder="any entry"
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? 'activity-entry-error' : undefined}
        />
        {invalid && (
          <span id="activity-entry-error" className="field-error">
            must be an entry id (a UUID)
          </span>
        )}
      </div>
      <button className="btn" type="submit">
        Filter
      </button>
      {(value.type || value.entry) && (
        <button className="btn" type="button" onClick={() => onChange({ type: undefined, entry: undefined })}>
          Clear
        </button>
      )}
    </form>
  );
}
