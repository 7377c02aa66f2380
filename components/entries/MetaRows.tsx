'use client';
// Meta as rows of key and value inputs: add a row, remove one (lib/console/meta.ts reads them).
import type { MetaRow } from '@/lib/console/meta';

export function MetaRows({ rows, onChange }: { rows: MetaRow[]; onChange(rows: MetaRow[]): void }) {
  const set = (i: number, patch: Partial<MetaRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="meta-rows">
      <legend>Meta</legend>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; a key being typed cannot be the identity
        <div className="meta-row" key={i}>
          <input aria-label={`Meta key ${i + 1}`} placeholder="key" value={r.key} onChange={(e) => set(i, { key: e.target.value })} />
          <input
            aria-label={`Meta value ${i + 1}`}
            placeholder="value"
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <button
            type="button"
            className="btn-icon"
            aria-label={`Remove meta row ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="btn" onClick={() => onChange([...rows, { key: '', value: '' }])}>
        Add meta field
      </button>
    </fieldset>
  );
}
