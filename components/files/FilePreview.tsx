'use client';
// Preview of one version inside a sandboxed iframe (no scripts, no same-origin access): PDFs and
// images load from the API directly; text and XML are fetched, escaped and shown in srcdoc.
import { useQuery } from '@tanstack/react-query';
import { ErrorNote, Skeleton } from '@/components/ui/bits';
import { ApiFailure } from '@/lib/console/api';
import { TEXT_PREVIEW_LIMIT, prettyXml, previewKind, textDocument } from '@/lib/console/preview';

export const fileHref = (entryId: string, fileId: string, download = false) =>
  `/silo/v1/entries/${entryId}/files/${fileId}${download ? '?download=1' : ''}`;

async function fetchText(href: string): Promise<string> {
  const res = await fetch(href, { credentials: 'same-origin' });
  if (!res.ok) {
    const body = await res.json().catch(() => undefined);
    throw new ApiFailure(body?.message ?? `The server answered ${res.status}`, res.status, body?.key ?? 'unknown');
  }
  return res.text();
}

export function FilePreview({ entryId, fileId, name, mime, size }: { entryId: string; fileId: string; name: string; mime: string; size: number }) {
  const kind = previewKind(mime, name);
  const href = fileHref(entryId, fileId);
  const isText = kind === 'text' || kind === 'xml';
  const text = useQuery({
    queryKey: ['file-text', fileId],
    queryFn: () => fetchText(href),
    enabled: isText && size <= TEXT_PREVIEW_LIMIT,
    staleTime: Infinity, // a version's bytes never change
  });
  if (!kind) return <p className="muted">No preview for {mime}; download it instead.</p>;
  if (isText && size > TEXT_PREVIEW_LIMIT) return <p className="muted">Too large to preview; download it instead.</p>;
  const title = `Preview of ${name}`;
  if (!isText) {
    return (
      <div className="preview">
        <iframe title={title} sandbox="" src={href} />
      </div>
    );
  }
  if (text.isPending) return <Skeleton rows={2} />;
  if (text.error) return <ErrorNote error={text.error} />;
  const dark = typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark';
  const shown = kind === 'xml' ? prettyXml(text.data) : text.data;
  return (
    <div className="preview">
      <iframe title={title} sandbox="" srcDoc={textDocument(shown, dark)} />
    </div>
  );
}
