'use client';
// Edits an entry's name, folder, key and meta (PATCH). Meta as "key = value" lines or as JSON;
// the server's field errors show under their fields, anything else above the button.
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useToast } from '@/components/ui/Toaster';
import { fieldErrors } from '@/lib/console/api';
import { useUpdateEntry } from '@/lib/console/hooks/entries';
import { metaToText, textToMeta } from '@/lib/console/meta';
import type { Entry } from '@/lib/schemas/records';

type MetaMode = 'lines' | 'json';

/** Meta typed as a JSON object of strings; anything else is the user's mistake to show. */
export function jsonToMeta(text: string): Record<string, string> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('Meta is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('Meta must be a JSON object');
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') throw new Error(`Meta values must be strings ("${k}" is not)`);
  return value as Record<string, string>;
}

const metaText = (meta: Record<string, string>, mode: MetaMode) => (mode === 'json' ? JSON.stringify(meta, null, 2) : metaToText(meta));
const readMeta = (text: string, mode: MetaMode) => (mode === 'json' ? jsonToMeta(text) : textToMeta(text));

export function EditEntryForm({ ownerId, entry, onDone }: { ownerId: string; entry: Entry; onDone(): void }) {
  const [form, setForm] = useState({ name: entry.name, folder: entry.folder, key: entry.key ?? '' });
  const [mode, setMode] = useState<MetaMode>('lines');
  const [meta, setMeta] = useState(metaText(entry.meta, 'lines'));
  const toast = useToast();
  const update = useUpdateEntry(ownerId, entry.id, {
    onSuccess: () => {
      toast.show('Entry saved', 'success');
      onDone();
    },
  });
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });
  const fields = fieldErrors(update.error);
  // The meta field's own error, or one for a key within it (meta.<key>).
  const metaError = fields?.meta ?? Object.entries(fields ?? {}).find(([k]) => k.startsWith('meta.'))?.[1];
  return (
    <Form
      onSubmit={() => {
        update.reset(); // the last answer's field errors go with a new attempt
        update.mutate({ name: form.name, folder: form.folder, key: form.key === '' ? null : form.key, meta: readMeta(meta, mode) });
      }}
      error={update.error}
      pending={update.isPending}
      submit="Save changes"
      pendingLabel="Saving…"
    >
      <Field label="Name" error={fields?.name}>
        <input value={form.name} onChange={set('name')} />
      </Field>
      <Field label="Folder" hint="Parts separated by /, e.g. invoices/2026" error={fields?.folder}>
        <input value={form.folder} onChange={set('folder')} />
      </Field>
      <Field label="Key" hint="Unique in the workspace; empty removes it" error={fields?.key}>
        <input value={form.key} onChange={set('key')} />
      </Field>
      <Field label="Meta format">
        <select
          value={mode}
          onChange={(e) => {
            const next = e.target.value as MetaMode;
            // Carry what is typed over to the other format when it reads; otherwise start from the entry's.
            let current: Record<string, string>;
            try {
              current = readMeta(meta, mode);
            } catch {
              current = entry.meta;
            }
            setMeta(metaText(current, next));
            setMode(next);
          }}
        >
          <option value="lines">key = value lines</option>
          <option value="json">JSON</option>
        </select>
      </Field>
      <Field label="Meta" hint={mode === 'json' ? 'A JSON object of strings' : 'One key = value per line'} error={metaError}>
        <textarea className={mode === 'json' ? 'mono' : undefined} rows={6} value={meta} onChange={(e) => setMeta(e.target.value)} />
      </Field>
    </Form>
  );
}
