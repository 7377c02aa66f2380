'use client';
// An entry's current files, grouped by category: formats first, then attachments.
import { EmptyState } from '@/components/ui/EmptyState';
import type { FileRecord } from '@/lib/schemas/records';
import { FileCard } from './FileCard';

const GROUPS = [
  { category: 'format', title: 'Formats', hint: 'Alternative renderings of the document, such as PDF or XML' },
  { category: 'attachment', title: 'Attachments', hint: 'Supporting documents' },
] as const;

export function FileList({ files }: { files: FileRecord[] }) {
  if (files.length === 0) return <EmptyState title="No files yet">Drop files above to upload them.</EmptyState>;
  return (
    <>
      {GROUPS.map((g) => {
        const list = files.filter((f) => f.category === g.category);
        if (list.length === 0) return null;
        return (
          <section key={g.category} aria-labelledby={`group-${g.category}`} style={{ marginBottom: '1rem' }}>
            <h3 id={`group-${g.category}`}>
              {g.title}{' '}
              <span className="muted" style={{ fontWeight: 400, fontSize: '0.85rem' }}>
                — {g.hint}
              </span>
            </h3>
            {list.map((f) => (
              <FileCard key={f.id} file={f} />
            ))}
          </section>
        );
      })}
    </>
  );
}
