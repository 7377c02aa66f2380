'use client';
// Description, meta, private and embeddable of a file (no new version).
import { useState } from 'react';
import { Check, Field } from '@/components/ui/Field';
import { ErrorNote } from '@/components/ui/bits';
import { ApiFailure } from '@/lib/console/api';
import { metaToText, textToMeta } from '@/lib/console/meta';
import type { FileRecord } from '@/lib/schemas/records';
import { useFileActions } from './useFileActions';

export function EditFileForm({ file, onDone }: { file: FileRecord; onDone(): void }) {
  const { update } = useFileActions(file.entry_id);
  const [desc, setDesc] = useState(file.desc);
  const [meta, setMeta] = useState(metaToText(file.meta));
  const [priv, setPriv] = useState(file.private);
  const [embeddable, setEmbeddable] = useState(file.embeddable);
  const [parseError, setParseError] = useState<Error | null>(null);
  const fields = update.error instanceof ApiFailure ? update.error.fields : undefined;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        try {
          const patch = { desc, meta: textToMeta(meta), private: priv, embeddable };
          setParseError(null);
          update.mutate({ id: file.id, patch }, { onSuccess: onDone });
        } catch (err) {
          setParseError(err as Error);
        }
      }}
    >
      <Field label="Description" error={fields?.desc}>
        <input value={desc} onChange={(e) => setDesc(e.target.value)} />
      </Field>
      <Field label="Meta" hint="One key = value per line" error={fields?.meta}>
        <textarea value={meta} onChange={(e) => setMeta(e.target.value)} />
      </Field>
      <div className="row">
        <Check label="Private (no public link)" checked={priv} onChange={setPriv} />
        <Check label="Embeddable" checked={embeddable} onChange={setEmbeddable} />
      </div>
      <ErrorNote error={parseError ?? update.error} />
      <button className="btn-primary" type="submit" disabled={update.isPending}>Save</button>
    </form>
  );
}
