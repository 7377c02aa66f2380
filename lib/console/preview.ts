// Which files the console previews, and how text and XML are shown.
export type PreviewKind = 'pdf' | 'image' | 'text' | 'xml' | null;

const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
/** Text is fetched and shown whole; past this it is better downloaded. */
export const TEXT_PREVIEW_LIMIT = 2 * 1024 * 1024;

export function previewKind(mime: string, name: string): PreviewKind {
  const type = mime.split(';')[0].trim().toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (IMAGES.has(type)) return 'image';
  if (type.endsWith('/xml') || type.endsWith('+xml') || /\.xml$/i.test(name)) return type === 'image/svg+xml' ? null : 'xml';
  if (type.startsWith('text/') || type === 'application/json') return 'text';
  return null;
}

/** Indents an XML document; returns the input unchanged when it does not parse. */
export function prettyXml(source: string): string {
  const doc = new DOMParser().parseFromString(source, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return source;
  const out: string[] = [];
  const walk = (node: Node, depth: number) => {
    const pad = '  '.repeat(depth);
    if (node.nodeType === Node.TEXT_NODE) {
      const t = node.textContent?.trim();
      if (t) out.push(pad + t);
      return;
    }
    if (node.nodeType === Node.COMMENT_NODE) return void out.push(`${pad}<!--${node.textContent}-->`);
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    const attrs = Array.from(el.attributes)
      .map((a) => ` ${a.name}="${a.value}"`)
      .join('');
    const kids = Array.from(el.childNodes).filter((c) => c.nodeType !== Node.TEXT_NODE || c.textContent?.trim());
    if (kids.length === 0) return void out.push(`${pad}<${el.tagName}${attrs}/>`);
    if (kids.length === 1 && kids[0].nodeType === Node.TEXT_NODE)
      return void out.push(`${pad}<${el.tagName}${attrs}>${kids[0].textContent?.trim()}</${el.tagName}>`);
    out.push(`${pad}<${el.tagName}${attrs}>`);
    for (const c of kids) walk(c, depth + 1);
    out.push(`${pad}</${el.tagName}>`);
  };
  walk(doc.documentElement, 0);
  return out.join('\n');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A self-contained document for a sandboxed iframe's srcdoc: the text, escaped, in a <pre>. */
export function textDocument(text: string, dark: boolean): string {
  const colors = dark ? 'background:#171a20;color:#e7e9ee' : 'background:#fff;color:#161a1f';
  return `<!doctype html><meta charset="utf-8"><body style="margin:0;${colors}"><pre style="margin:0;padding:12px;font:12.5px/1.5 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word">${escapeHtml(text)}</pre></body>`;
}
