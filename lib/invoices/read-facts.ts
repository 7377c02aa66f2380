// An invoice's facts (who sold what to whom, when, for how much) read from UBL 2.1 or UN/CEFACT CII
// bytes, safely: streaming, no DTD, no entities, no network, bounded size, depth, text and time. Pure:
// no Next, no database, so the upload's stream, an inline create and a test feed it alike.
import { SaxesParser, type SaxesTagNS } from 'saxes';

export type InvoiceParty = { name: string | null; vat_id: string | null };

export type InvoiceFacts = {
  syntax: 'ubl' | 'cii';
  type: 'invoice' | 'credit_note';
  number: string | null;
  issue_date: string | null;
  due_date: string | null;
  currency: string | null;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  net: string | null;
  tax: string | null;
  payable: string | null;
};

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

const NS = {
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

const UBL_PARTS = new Set<string>([NS.cac, NS.cbc]);
const CII_PARTS = new Set<string>([NS.rsm, NS.ram, NS.udt]);

/** UNTDID 1001 document types that credit (EN 16931's credit note codes and their kin). */
const CREDIT_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** Whether bytes are worth offering to the reader: an XML media type, or XML-looking first bytes. */
export function looksLikeXml(head: Uint8Array, mime?: string | null): boolean {
  if (mime && /^(application|text)\/([\w.+-]*\+)?xml\b/i.test(mime)) return true;
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  else if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return head[i] === 0x3c && i + 1 < head.length && /[?!A-Za-z_]/.test(String.fromCharCode(head[i + 1]));
}

type Draft = {
  syntax: 'ubl' | 'cii';
  root: string;
  typeCode: string | null;
  fields: Map<string, string>;
  taxes: { currency: string | null; amount: string }[];
  vat: Record<'seller' | 'buyer', { vat: string | null; other: string | null }>;
  scheme: { id: string | null; scheme: string | null };
};

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

function draftFor(uri: string, local: string): Draft | null {
  const ubl = (uri === NS.ublInvoice && local === 'Invoice') || (uri === NS.ublCreditNote && local === 'CreditNote');
  const cii = uri === NS.rsm && local === 'CrossIndustryInvoice';
  if (!ubl && !cii) return null;
  const empty = () => ({ vat: null, other: null });
  return {
    syntax: ubl ? 'ubl' : 'cii',
    root: local,
    typeCode: null,
    fields: new Map(),
    taxes: [],
    vat: { seller: empty(), buyer: empty() },
    scheme: { id: null, scheme: null },
  };
}

// The paths read, from the root ("R"); elements outside the syntax's namespaces are "?".
const UBL_PARTY = { seller: 'R/AccountingSupplierParty/Party', buyer: 'R/AccountingCustomerParty/Party' };
const CII_AGREEMENT = 'R/SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement';
const CII_PARTY = { seller: `${CII_AGREEMENT}/SellerTradeParty`, buyer: `${CII_AGREEMENT}/BuyerTradeParty` };
const CII_SETTLEMENT = 'R/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement';
const CII_SUM = `${CII_SETTLEMENT}/SpecifiedTradeSettlementHeaderMonetarySummation`;

/** Path → the field it fills (the first one seen wins), for the simple ones. */
const FIELDS: Record<string, string> = {
  'R/ID': 'number',
  'R/IssueDate': 'issue_date',
  'R/DueDate': 'due_date',
  'R/PaymentMeans/PaymentDueDate': 'due_date_means',
  'R/DocumentCurrencyCode': 'currency',
  'R/InvoiceTypeCode': 'type_code',
  'R/CreditNoteTypeCode': 'type_code',
  [`${UBL_PARTY.seller}/PartyLegalEntity/RegistrationName`]: 'seller_name',
  [`${UBL_PARTY.seller}/PartyName/Name`]: 'seller_trading_name',
  [`${UBL_PARTY.buyer}/PartyLegalEntity/RegistrationName`]: 'buyer_name',
  [`${UBL_PARTY.buyer}/PartyName/Name`]: 'buyer_trading_name',
  'R/LegalMonetaryTotal/TaxExclusiveAmount': 'net',
  'R/LegalMonetaryTotal/PayableAmount': 'payable',
  'R/ExchangedDocument/ID': 'number',
  'R/ExchangedDocument/TypeCode': 'type_code',
  'R/ExchangedDocument/IssueDateTime/DateTimeString': 'issue_date',
  [`${CII_PARTY.seller}/Name`]: 'seller_name',
  [`${CII_PARTY.buyer}/Name`]: 'buyer_name',
  [`${CII_SETTLEMENT}/InvoiceCurrencyCode`]: 'currency',
  [`${CII_SETTLEMENT}/SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString`]: 'due_date',
  [`${CII_SUM}/TaxBasisTotalAmount`]: 'net',
  [`${CII_SUM}/DuePayableAmount`]: 'payable',
};

const UBL_TAX = 'R/TaxTotal/TaxAmount';
const CII_TAX = `${CII_SUM}/TaxTotalAmount`;
const UBL_SCHEME = (who: 'seller' | 'buyer') => `${UBL_PARTY[who]}/PartyTaxScheme`;
const CII_REGISTRATION = (who: 'seller' | 'buyer') => `${CII_PARTY[who]}/SpecifiedTaxRegistration/ID`;

const WANTED = new Set<string>([
  ...Object.keys(FIELDS),
  UBL_TAX,
  CII_TAX,
  `${UBL_SCHEME('seller')}/CompanyID`,
  `${UBL_SCHEME('seller')}/TaxScheme/ID`,
  `${UBL_SCHEME('buyer')}/CompanyID`,
  `${UBL_SCHEME('buyer')}/TaxScheme/ID`,
  CII_REGISTRATION('seller'),
  CII_REGISTRATION('buyer'),
]);

function record(draft: Draft, at: string, text: string, attrs: Record<string, string>): void {
  if (text === '') return;
  const field = FIELDS[at];
  if (field) {
    // A CII date must say it is format 102 (YYYYMMDD); other formats are not a day.
    if (at.endsWith('/DateTimeString') && attrs.format !== '102') return;
    if (!draft.fields.has(field)) draft.fields.set(field, text);
    return;
  }
  if (at === UBL_TAX || at === CII_TAX) {
    draft.taxes.push({ currency: attrs.currencyID ?? null, amount: text });
    return;
  }
  for (const who of ['seller', 'buyer'] as const) {
    if (at === `${UBL_SCHEME(who)}/CompanyID`) draft.scheme.id = text;
    else if (at === `${UBL_SCHEME(who)}/TaxScheme/ID`) draft.scheme.scheme = text;
    else if (at === CII_REGISTRATION(who)) {
      const slot = draft.vat[who];
      if (attrs.schemeID === 'VA') slot.vat ??= text;
    }
  }
}

/** At the end of a UBL PartyTaxScheme: its CompanyID is the VAT id when its scheme is VAT. */
const ENDS = new Map<string, (draft: Draft) => void>(
  (['seller', 'buyer'] as const).map((who) => [
    UBL_SCHEME(who),
    (draft: Draft) => {
      const { id, scheme } = draft.scheme;
      draft.scheme = { id: null, scheme: null };
      if (id === null) return;
      const slot = draft.vat[who];
      if (scheme === null || scheme.toUpperCase() === 'VAT') slot.vat ??= id;
      else slot.other ??= id;
    },
  ]),
);

function finish(draft: Draft): InvoiceFacts {
  const f = (name: string) => draft.fields.get(name) ?? null;
  const code = f('type_code');
  const credit = draft.root === 'CreditNote' || (code !== null && CREDIT_CODES.has(code));
  const currency = f('currency');
  const tax = draft.taxes.find((t) => t.currency === currency) ?? draft.taxes[0];
  const day = draft.syntax === 'ubl' ? ublDate : ciiDate;
  return {
    syntax: draft.syntax,
    type: credit ? 'credit_note' : 'invoice',
    number: f('number'),
    issue_date: day(f('issue_date')),
    due_date: day(f('due_date')) ?? day(f('due_date_means')),
    currency,
    seller: { name: name(f('seller_name') ?? f('seller_trading_name')), vat_id: draft.vat.seller.vat },
    buyer: { name: name(f('buyer_name') ?? f('buyer_trading_name')), vat_id: draft.vat.buyer.vat },
    net: amount(f('net')),
    tax: amount(tax?.amount ?? null),
    payable: amount(f('payable')),
  };
}

const name = (s: string | null) => (s === null ? null : s.replace(/\s+/g, ' '));
const amount = (s: string | null) => (s !== null && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s) ? s : null);

/** xs:date, possibly with a zone (`2024-03-01Z`, `2024-03-01+01:00`): the day as written. */
function ublDate(s: string | null): string | null {
  const m = s === null ? null : /^(\d{4})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(s);
  return m && realDay(m[1], m[2], m[3]) ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** UN/CEFACT format 102: YYYYMMDD. */
function ciiDate(s: string | null): string | null {
  const m = s === null ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  return m && realDay(m[1], m[2], m[3]) ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

function realDay(y: string, m: string, d: string): boolean {
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
  return Number(y) >= 1 && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}
