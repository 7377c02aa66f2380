'use client';
// Creates an entry in the workspace and environment being browsed, then opens it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Field } from '@/components/ui/Field';
import { ErrorNote } from '@/components/ui/bits';
import { useToast } from '@/components/ui/Toaster';
import { api, ApiFailure } from '@/lib/console/api';
import { textToMeta } from '@/lib/console/meta';
import { keys } from '@/lib/console/queries';
import type { Entry } from '@/lib/schemas/records';

export function NewEntryForm({ ownerId, sandbox }: { ownerId: string; sandbox: boolean }) {
  const [form, setForm] = useState({ name: '', folder: '', key: '', meta: '' });
  const router = useRouter();
  const queries = useQueryClient();
  const toast = useToast();
  const create = useMutation({
    mutationFn: () =>
      api<Entry>('/silo/v1/entries', {
        method: 'POST',
        owner: ownerId,
        sandbox,
        body: { name: form.name, folder: form.folder, ...(form.key ? { key: form.key } : {}), meta: textToMeta(form.meta) },
      }),
    onSuccess: (e) => {
      queries.invalidateQueries({ queryKey: keys.entries(ownerId) });
      toast.show('Entry created', 'success');
      router.push(`/workspaces/${ownerId}/entries/${e.id}`);
    },
  });
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm({ ...form, [k]: e.target.value });
  const fields = create.error instanceof ApiFailure ? create.error.fields : undefined;
  return (
    <form className="form" onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
      <p className="muted">In the {sandbox ? 'sandbox' : 'live'} environment.</p>
      <Field label="Name" error={fields?.name}><input autoFocus value={form.name} onChange={set('name')} placeholder="Invoice 2026-0042" /></Field>
      <Field label="Folder" error={fields?.folder}><input value={form.folder} onChange={set('folder')} placeholder="invoices/2026" /></Field>
      <Field label="Key" hint="Optional; unique in the workspace" error={fields?.key}><input value={form.key} onChange={set('key')} /></Field>
      <Field label="Meta" hint="One key = value per line" error={fields?.meta}><textarea value={form.meta} onChange={set('meta')} /></Field>
      <ErrorNote error={create.error} />
      <button className="btn-primary" type="submit" disabled={create.isPending}>Create entry</button>
    </form>
  );
}
