'use client';
// Preview of one version inside a sandboxed iframe (no scripts, no same-origin access): images load
// from the API directly; text and XML are fetched, escaped and shown in srcdoc; PDFs are drawn to
// images by pdf.js (the browser's own PDF viewer will not run in a sandboxed frame).
import { useState } from 'react';
import { ErrorNote } from '@/components/ui/ErrorNote';
import { Skeleton } from '@/components/ui/Skeleton';
import { ApiFailure } from '@/lib/console/api';
import { fileHref, useFileBytes } from '@/lib/console/hooks/files';
import { PDF_PREVIEW_LIMIT, pagesDocument, renderPdf } from '@/lib/console/pdf-pages';
import { TEXT_PREVIEW_LIMIT, prettyXml, previewKind, textDocument } from '@/lib/console/preview';

const isDark = () => typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark';

export function FilePreview({
  entryId,
  fileId,
  name,
  mime,
  size,
}: {
  entryId: string;
  fileId: string;
  name: string;
  mime: string;
  size: number;
}) {
  const kind = previewKind(mime, name);
  // XML: the indented tree, or the bytes as stored (declaration, whitespace and all).
  const [view, setView] = useState<'pretty' | 'raw'>('pretty');
  const href = fileHref(entryId, fileId);
  const limit = kind === 'pdf' ? PDF_PREVIEW_LIMIT : TEXT_PREVIEW_LIMIT;
  const drawn = kind === 'text' || kind === 'xml' || kind === 'pdf';
  const dark = isDark();
  const doc = useFileBytes(
    entryId,
    fileId,
    [dark, kind === 'xml' ? view : null],
    async (res) => {
      if (kind === 'pdf') return pagesDocument(await renderPdf(await res.arrayBuffer(), 860), name, dark);
      const text = await res.text();
      return textDocument(kind === 'xml' && view === 'pretty' ? prettyXml(text) : text, dark);
    },
    drawn && size <= limit,
  );
  if (!kind) return <p className="muted">No preview for {mime}; download it instead.</p>;
  if (drawn && size > limit) return <p className="muted">Too large to preview; download it instead.</p>;
  const title = `Preview of ${name}`;
  if (!drawn) {
    return (
      <div className="preview">
        <iframe title={title} sandbox="" src={href} />
      </div>
    );
  }
  const tabs = kind === 'xml' && (
    <div className="tabs" role="tablist" aria-label={`How to show ${name}`}>
      {(['pretty', 'raw'] as const).map((v) => (
        <button key={v} type="button" role="tab" className="tab" aria-selected={view === v} onClick={() => setView(v)}>
          {v === 'pretty' ? 'Pretty' : 'Raw'}
        </button>
      ))}
    </div>
  );
  if (doc.isPending)
    return (
      <>
        {tabs}
        <Skeleton rows={2} />
      </>
    );
  if (doc.error)
    return (
      <ErrorNote
        error={
          kind === 'pdf' && !(doc.error instanceof ApiFailure)
            ? new Error(`This PDF could not be drawn (${doc.error.message}); download it instead.`)
            : doc.error
        }
      />
    );
  return (
    <>
      {tabs}
      <div className="preview">
        <iframe title={title} sandbox="" srcDoc={doc.data} className={kind === 'pdf' ? 'tall' : undefined} />
      </div>
    </>
  );
}
