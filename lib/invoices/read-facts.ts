// An invoice's facts (who sold what to whom, when, for how much) read from UBL 2.1 or UN/CEFACT CII
// bytes, safely: streaming, no DTD, no entities, no network, bounded size, depth, text and time. Pure:
// no Next, no database, so the upload's stream, an inline create and a test feed it alike.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { CII_PARTS, type Draft, draftFor, ENDS, finish, type InvoiceFacts, record, UBL_PARTS, WANTED } from './invoice-syntax';

export type { InvoiceFacts, InvoiceParty } from './invoice-syntax';

/** Bytes past this are not read: a larger file has no facts (an e-invoice is 5–500 KB). */
export const FACTS_MAX_BYTES = 10 * 1024 * 1024;
/** Elements nested deeper than this end the read (a UBL or CII invoice is ~10 deep). */
export const FACTS_MAX_DEPTH = 64;
/** Wall-clock budget for one read, checked between slices of input. */
export const FACTS_MAX_MILLIS = 2000;
/** A fact's text beyond this many characters is not a fact (names, ids, amounts are short). */
const MAX_TEXT = 1024;
/** The parser is fed this many characters at a time, so the time budget is checked often. */
const SLICE = 64 * 1024;

/**
 * Whether bytes are worth offering to the reader: their first character (after a byte order mark
 * and white space) is `<`, as in every XML document, and their media type is XML or they go on as
 * XML does. UTF-16 (its byte order mark) is offered whatever follows. Bytes that an XML media type
 * mislabels are not decoded and parsed only to fail at their first character.
 */
export function looksLikeXml(head: Uint8Array, mime?: string | null): boolean {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  else if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (head[i] !== 0x3c) return false;
  if (mime && /^(application|text)\/([\w.+-]*\+)?xml\b/i.test(mime)) return true;
  return i + 1 < head.length && /[?!A-Za-z_]/.test(String.fromCharCode(head[i + 1]));
}

/** A reader fed bytes in any number of chunks; `result()` gives the facts or null. Never throws. */
export class InvoiceFactsReader {
  private parser: SaxesParser<{ xmlns: true; position: false }> | null = null;
  private decoder: TextDecoder | null = null;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private bytes = 0;
  private millis = 0;
  private failed = false;
  private finished = false;
  private facts: InvoiceFacts | null = null;
  private draft: Draft | null = null;
  private path: string[] = [];
  private text: string | null = null;
  private attrs: Record<string, string> = {};

  /** `mime`: the bytes' media type; bytes that neither it nor their start says are XML are not read. */
  constructor(private readonly mime?: string | null) {}

  /** Whether more bytes can still change the answer (false once refused or known not an invoice). */
  get wanted(): boolean {
    return !this.failed && !this.finished;
  }

  write(chunk: Uint8Array): void {
    if (!this.wanted) return;
    this.bytes += chunk.byteLength;
    if (this.bytes > FACTS_MAX_BYTES) {
      this.fail();
      return;
    }
    if (!this.decoder) {
      this.head.push(chunk);
      this.headBytes += chunk.byteLength;
      if (this.headBytes < 512) return;
      this.start();
      return;
    }
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  result(): InvoiceFacts | null {
    if (this.wanted) {
      if (!this.decoder) this.start();
      if (this.wanted) this.feed(this.decoder?.decode() ?? '');
      if (this.wanted) this.run(() => this.parser?.close());
    }
    return this.failed ? null : this.facts;
  }

  private start(): void {
    const head = concat(this.head, this.headBytes);
    this.head = [];
    if (!looksLikeXml(head.subarray(0, 64), this.mime)) {
      this.finished = true;
      return;
    }
    const label = encodingOf(head);
    if (!label) {
      this.fail();
      return;
    }
    try {
      this.decoder = new TextDecoder(label);
    } catch {
      this.fail();
      return;
    }
    const parser = new SaxesParser({ xmlns: true, position: false });
    parser.on('doctype', () => {
      throw new Refused('DOCTYPE');
    });
    parser.on('opentag', (tag) => this.open(tag));
    parser.on('closetag', () => this.close());
    parser.on('text', (t) => this.collect(t));
    parser.on('cdata', (t) => this.collect(t));
    this.parser = parser;
    this.feed(this.decoder.decode(head, { stream: true }));
  }

  private feed(text: string): void {
    for (let at = 0; at < text.length && this.wanted; at += SLICE) {
      const slice = text.slice(at, at + SLICE);
      this.run(() => this.parser?.write(slice));
    }
  }

  private run(step: () => void): void {
    const began = performance.now();
    try {
      step();
    } catch {
      this.fail();
    }
    this.millis += performance.now() - began;
    if (this.millis > FACTS_MAX_MILLIS) this.fail();
  }

  private fail(): void {
    this.failed = true;
    this.facts = null;
    this.parser = null;
  }

  private open(tag: SaxesTagNS): void {
    if (this.path.length >= FACTS_MAX_DEPTH) throw new Refused('depth');
    if (this.path.length === 0) {
      this.draft = draftFor(tag.uri, tag.local);
      if (!this.draft) {
        this.finished = true;
        throw new Refused('not an invoice');
      }
      this.path.push('R');
      return;
    }
    const parts = this.draft?.syntax === 'ubl' ? UBL_PARTS : CII_PARTS;
    this.path.push(parts.has(tag.uri) ? tag.local : '?');
    this.text = WANTED.has(this.path.join('/')) ? '' : null;
    if (this.text !== null) {
      this.attrs = {};
      for (const [name, a] of Object.entries(tag.attributes)) if (!a.uri) this.attrs[name] = a.value;
    }
  }

  private collect(t: string): void {
    if (this.text === null) return;
    this.text = this.text.length + t.length > MAX_TEXT ? null : this.text + t;
  }

  private close(): void {
    const draft = this.draft;
    if (!draft) return;
    const at = this.path.join('/');
    if (this.text !== null && WANTED.has(at)) record(draft, at, this.text.trim(), this.attrs);
    const end = ENDS.get(at);
    if (end) end(draft);
    this.text = null;
    this.path.pop();
    if (this.path.length === 0) {
      this.facts = finish(draft);
      this.finished = true;
    }
  }
}

/** The facts of a whole file's bytes, or null. Never throws. */
export function readInvoiceFacts(bytes: Uint8Array, mime?: string | null): InvoiceFacts | null {
  if (bytes.byteLength > FACTS_MAX_BYTES) return null;
  const reader = new InvoiceFactsReader(mime);
  reader.write(bytes);
  return reader.result();
}

class Refused extends Error {}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const ENCODINGS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii', 'iso-8859-1', 'iso-8859-15', 'latin1', 'windows-1252']);

/** The decoder's label from a BOM or the XML declaration; null for an encoding not read here. */
function encodingOf(head: Uint8Array): string | null {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const decl = /^(?:\uFEFF)?<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    new TextDecoder('latin1').decode(head.subarray(0, 200)),
  );
  if (!decl) return 'utf-8';
  const name = decl[1].toLowerCase();
  return ENCODINGS.has(name) ? name : null;
}
