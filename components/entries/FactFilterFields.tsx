'use client';
// The entry list's invoice fact filters (seller and buyer VAT id, number, currency, issue dates):
// fields of the filter form, applied with it. Folded away until used.
import { useEffect, useState } from 'react';
import type { FactFilter } from '@/lib/console/hooks/entries';

const FIELDS: { name: keyof FactFilter; label: string; type?: 'date'; placeholder?: string }[] = [
  { name: 'seller_vat', label: 'Seller VAT id', placeholder: 'DE123456789' },
  { name: 'buyer_vat', label: 'Buyer VAT id', placeholder: 'any' },
  { name: 'number', label: 'Invoice number', placeholder: 'any' },
  { name: 'currency', label: 'Currency', placeholder: 'EUR' },
  { name: 'issued_from', label: 'Issued from', type: 'date' },
  { name: 'issued_to', label: 'Issued to', type: 'date' },
];

/** The filters with empty values left out, trimmed: what the URL and the API get. */
export function cleanFacts(f: FactFilter): FactFilter | undefined {
  const out: FactFilter = {};
  for (const { name } of FIELDS) {
    const v = f[name]?.trim();
    if (v) out[name] = [...v].slice(0, 255).join('');
  }
  return Object.keys(out).length ? out : undefined;
}

interface Props {
  value: FactFilter;
  onChange(value: FactFilter): void;
}

export function FactFilterFields({ value, onChange }: Props) {
  const used = FIELDS.some(({ name }) => value[name]);
  // Opened by the user or by a filter in use; emptying the fields does not fold it under their hands.
  const [open, setOpen] = useState(used);
  useEffect(() => {
    if (used) setOpen(true);
  }, [used]);
  return (
    <details className="fact-filters" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} style={{ flexBasis: '100%' }}>
      <summary>Invoice facts</summary>
      <div className="form-inline">
        {FIELDS.map(({ name, label, type, placeholder }) => (
          <div className="field" key={name}>
            <label htmlFor={`filter-${name}`}>{label}</label>
            <input
              id={`filter-${name}`}
              type={type ?? 'text'}
              value={value[name] ?? ''}
              placeholder={placeholder}
              onChange={(e) => onChange({ ...value, [name]: e.target.value })}
            />
          </div>
        ))}
      </div>
    </details>
  );
}
