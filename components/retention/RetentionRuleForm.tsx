'use client';
// A new retention rule: a country's legal default as a preset (or terms of one's own), what it
// covers (a category, a folder), its mode, whether it also extends the versions stored before, and
// the date it would give a file uploaded today, computed as the database does (retentionDate).
import { useState } from 'react';
import { Check } from '@/components/ui/Check';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { ApiFailure } from '@/lib/console/api';
import type { NewRetentionRule } from '@/lib/console/hooks/retention';
import { formatUtc, retentionDate } from '@/lib/console/retention-date';
import type { RetentionRuleInput } from '@/lib/schemas/retention';

/** Each country's period for e-invoices, counted from the end of the year of issue (issue 23). */
export const COUNTRY_PRESETS = [
  { id: 'DE', label: 'Germany (DE): 8 years from the end of the year, §147 AO', years: 8 },
  { id: 'FR', label: 'France (FR): 10 years from the end of the year', years: 10 },
  { id: 'IT', label: 'Italy (IT): 10 years from the end of the year', years: 10 },
  { id: 'BE', label: 'Belgium (BE): 10 years from the end of the year', years: 10 },
  { id: 'PT', label: 'Portugal (PT): 10 years from the end of the year', years: 10 },
  { id: 'ES', label: 'Spain (ES): 6 years from the end of the year', years: 6 },
] as const;

interface Props {
  onSubmit(input: NewRetentionRule): void;
  error: unknown;
  pending: boolean;
}

export function RetentionRuleForm({ onSubmit, error, pending }: Props) {
  const [preset, setPreset] = useState('');
  const [category, setCategory] = useState<'' | 'format' | 'attachment'>('');
  const [folder, setFolder] = useState('');
  const [years, setYears] = useState('10');
  const [days, setDays] = useState('0');
  const [from, setFrom] = useState<'stored' | 'end_of_year'>('end_of_year');
  const [mode, setMode] = useState<'governance' | 'compliance'>('governance');
  const [applyToExisting, setApplyToExisting] = useState(false);
  const fields = error instanceof ApiFailure ? error.fields : undefined;

  const choose = (id: string) => {
    setPreset(id);
    const p = COUNTRY_PRESETS.find((c) => c.id === id);
    if (!p) return;
    setYears(String(p.years));
    setDays('0');
    setFrom('end_of_year');
  };
  // a change of the terms leaves the preset
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setPreset('');
  };

  const y = Number(years);
  const d = Number(days);
  const now = new Date();
  const example = Number.isInteger(y) && Number.isInteger(d) && y >= 0 && d >= 0 ? retentionDate({ years: y, days: d, from }, now) : null;

  return (
    <Form
      submit="Add rule"
      pendingLabel="Adding…"
      pending={pending}
      error={error}
      onSubmit={() => {
        const rule: RetentionRuleInput = { years: y, days: d, from, mode };
        if (category) rule.category = category;
        if (folder.trim()) rule.folder = folder.trim();
        onSubmit({ rule, applyToExisting });
      }}
    >
      <Field label="Preset" hint="A country's legal default for e-invoices">
        <select value={preset} onChange={(e) => choose(e.target.value)}>
          <option value="">Custom</option>
          {COUNTRY_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <div className="row">
        <Field label="Years" error={fields?.years}>
          <input type="number" min={0} max={100} value={years} required onChange={(e) => edit(setYears)(e.target.value)} />
        </Field>
        <Field label="Days" error={fields?.days}>
          <input type="number" min={0} max={36500} value={days} required onChange={(e) => edit(setDays)(e.target.value)} />
        </Field>
        <Field label="Counted from" error={fields?.from}>
          <select value={from} onChange={(e) => edit((v) => setFrom(v as typeof from))(e.target.value)}>
            <option value="end_of_year">the end of the year (UTC)</option>
            <option value="stored">when stored</option>
          </select>
        </Field>
      </div>
      <div className="row">
        <Field label="Category" error={fields?.category}>
          <select value={category} onChange={(e) => setCategory(e.target.value as typeof category)}>
            <option value="">Any</option>
            <option value="format">format</option>
            <option value="attachment">attachment</option>
          </select>
        </Field>
        <Field label="Folder" hint="This folder and those below it; empty: every folder" error={fields?.folder}>
          <input value={folder} maxLength={255} onChange={(e) => setFolder(e.target.value)} />
        </Field>
        <Field label="Mode" error={fields?.mode}>
          <select value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
            <option value="governance">governance (an administrator may override it)</option>
            <option value="compliance">compliance (no one may override it)</option>
          </select>
        </Field>
      </div>
      <Check
        label="Also apply to the versions stored before (extends, never shortens)"
        checked={applyToExisting}
        onChange={setApplyToExisting}
      />
      <p className="muted" data-testid="retention-example">
        {example
          ? `A file uploaded today (${formatUtc(now).slice(0, 10)}) is kept until ${formatUtc(example)}.`
          : 'Years and days are whole numbers.'}
      </p>
    </Form>
  );
}
