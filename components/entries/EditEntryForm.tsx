'use client';
// Edits an entry's name, folder, key and meta (PATCH). Meta as key/value rows or as JSON; the
// server's field errors show under their fields, anything else above the button.
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { Form } from '@/components/ui/Form';
import { useToast } from '@/components/ui/Toaster';
import { fieldErrors } from '@/lib/console/api';
import { useUpdateEntry } from '@/lib/console/hooks/entries';
import { jsonToMeta, metaToRows, rowsToMeta, type MetaRow } from '@/lib/console/meta';
import type { Entry } from '@/lib/schemas/records';
import { MetaRows } from './MetaRows';

type MetaMode = 'rows' | 'json';

const toJson = (meta: Record<string, string>) => JSON.stringify(meta, null, 2);

export function EditEntryForm({ ownerId, entry, onDone }: { ownerId: string; entry: Entry; onDone(): void }) {
  const [form, setForm] = useState({ name: entry.name, folder: entry.folder, key: entry.key ?? '' });
  const [mode, setMode] = useState<MetaMode>('rows');
  const [rows, setRows] = useState<MetaRow[]>(metaToRows(entry.meta));
  const [json, setJson] = useState(toJson(entry.meta));
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
  const readMeta = () => (mode === 'json' ? jsonToMeta(json) : rowsToMeta(rows));
  return (
    <Form
      onSubmit={() => {
        update.reset(); // the last answer's field errors go with a new attempt
        update.mutate({ name: form.name, folder: form.folder, key: form.key === '' ? null : form.key, meta: readMeta() });
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
            // Carry what is typed over to the other format when it reads; otherwise keep that format's own.
            try {
              if (next === 'json') setJson(toJson(rowsToMeta(rows)));
              else setRows(metaToRows(jsonToMeta(json)));
            } catch {}
            setMode(next);
          }}
        >
          <option value="rows">Key and value rows</option>
          <option value="json">JSON</option>
        </select>
      </Field>
      {mode === 'json' ? (
        <Field label="Meta" hint="A JSON object of strings" error={metaError}>
          <textarea className="mono" rows={6} value={json} onChange={(e) => setJson(e.target.value)} />
        </Field>
      ) : (
        <>
          <MetaRows rows={rows} onChange={setRows} />
          {metaError && <small className="field-error">{metaError}</small>}
        </>
      )}
    </Form>
  );
}
