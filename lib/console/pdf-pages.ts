// PDF preview without the browser's PDF viewer (which refuses to run in a sandboxed frame):
// pdf.js renders the first pages to PNG images in a worker-backed parser; no script in the PDF
// ever runs, and the page shows pictures only.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { must } from '../must';

/** Pages past this are left for the download. */
export const PDF_PREVIEW_PAGES = 10;
/** Larger PDFs are not fetched for preview. */
export const PDF_PREVIEW_LIMIT = 25 * 1024 * 1024;

let worker: Worker | undefined;

async function pdfjs() {
  const lib = await import('pdfjs-dist');
  if (!worker) {
    worker = new Worker(new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url), { type: 'module' });
    lib.GlobalWorkerOptions.workerPort = worker;
  }
  return lib;
}

export interface RenderedPdf {
  pages: string[];
  total: number;
}

/** The first pages of a PDF as PNG data URLs, `width` CSS pixels wide. */
export async function renderPdf(bytes: ArrayBuffer, width: number): Promise<RenderedPdf> {
  const lib = await pdfjs();
  const doc: PDFDocumentProxy = await lib.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, enableXfa: false }).promise;
  try {
    const pages: string[] = [];
    const ratio = Math.min(2, globalThis.devicePixelRatio || 1);
    for (let n = 1; n <= Math.min(doc.numPages, PDF_PREVIEW_PAGES); n++) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: (width / base.width) * ratio });
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      await page.render({ canvasContext: must(canvas.getContext('2d'), 'a 2d canvas context'), viewport }).promise;
      pages.push(canvas.toDataURL('image/png'));
      page.cleanup();
    }
    return { pages, total: doc.numPages };
  } finally {
    await doc.destroy();
  }
}

/** A self-contained document for a sandboxed frame: the rendered pages, one under another. */
export function pagesDocument(r: RenderedPdf, name: string, dark: boolean): string {
  const bg = dark ? '#171a20' : '#eef0f3';
  const fg = dark ? '#e7e9ee' : '#161a1f';
  const alt = (i: number) => `Page ${i + 1} of ${name}`.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const imgs = r.pages
    .map(
      (src, i) =>
        `<img src="${src}" alt="${alt(i)}" style="display:block;width:100%;margin:0 0 12px;box-shadow:0 1px 3px #0003;background:#fff">`,
    )
    .join('');
  const more =
    r.total > r.pages.length
      ? `<p style="font:13px system-ui;color:${fg}">${r.total - r.pages.length} more pages: download the file to see them.</p>`
      : '';
  return `<!doctype html><meta charset="utf-8"><body style="margin:0;padding:12px;background:${bg}">${imgs}${more}</body>`;
}
