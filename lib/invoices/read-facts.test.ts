import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FACTS_MAX_BYTES, InvoiceFactsReader, looksLikeXml, readInvoiceFacts } from './read-facts';
import { FACTUR_X_CII_INVOICE_FACTS, XRECHNUNG_UBL_INVOICE_FACTS } from './samples/expected-facts';

const sample = (name: string) => readFileSync(path.join(__dirname, 'samples', name));
const utf8 = (s: string) => new TextEncoder().encode(s);

/** The reader fed in chunks of `size` bytes, as an upload's stream feeds it. */
function inChunks(bytes: Uint8Array, size: number) {
  const reader = new InvoiceFactsReader();
  for (let at = 0; at < bytes.byteLength; at += size) reader.write(bytes.subarray(at, at + size));
  return reader.result();
}

const UBL_NS =
  'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

describe('invoice facts from real samples', () => {
  it('reads an XRechnung UBL invoice: VAT id of the VAT scheme, legal name, extensions ignored', () => {
    expect(readInvoiceFacts(sample('xrechnung-ubl-invoice.xml'))).toEqual(XRECHNUNG_UBL_INVOICE_FACTS);
  });

  it('reads a Peppol UBL credit note: PaymentDueDate, the tax in the document currency, CDATA, zoned date', () => {
    expect(readInvoiceFacts(sample('peppol-ubl-credit-note.xml'))).toEqual({
      syntax: 'ubl',
      type: 'credit_note',
      number: 'CN-7/2024',
      issue_date: '2024-11-02',
      due_date: '2024-12-02',
      currency: 'SEK',
      seller: { name: 'Nordic Supplies AB', vat_id: 'SE556677889901' },
      buyer: { name: 'Kund & Co <Stockholm>', vat_id: null },
      net: '1000.0000',
      tax: '250.0000',
      payable: '1250.0000',
    });
  });

  it('reads a Factur-X CII invoice: format 102 dates, the VA registration, not the FC one', () => {
    expect(readInvoiceFacts(sample('factur-x-cii-invoice.xml'))).toEqual(FACTUR_X_CII_INVOICE_FACTS);
  });

  it('reads an XRechnung CII credit note (TypeCode 381): amounts with many decimals as written, no due date', () => {
    expect(readInvoiceFacts(sample('xrechnung-cii-credit-note.xml'))).toEqual({
      syntax: 'cii',
      type: 'credit_note',
      number: 'GS-0001',
      issue_date: '2024-12-31',
      due_date: null,
      currency: 'EUR',
      seller: { name: 'Stadtwerke Beispiel GmbH', vat_id: 'DE111222333' },
      buyer: { name: 'Landesamt für Beispiele', vat_id: null },
      net: '-12.3456789',
      tax: '-2.345679',
      payable: '-14.6913579',
    });
  });

  it('gives null for what is missing or not a day (30 February)', () => {
    expect(readInvoiceFacts(sample('minimal-ubl-invoice.xml'))).toEqual({
      syntax: 'ubl',
      type: 'invoice',
      number: '7',
      issue_date: null,
      due_date: null,
      currency: 'USD',
      seller: { name: null, vat_id: null },
      buyer: { name: null, vat_id: null },
      net: null,
      tax: null,
      payable: null,
    });
  });

  it('reads the same facts whatever the chunks (1, 7 and 4096 bytes)', () => {
    for (const name of ['xrechnung-ubl-invoice.xml', 'factur-x-cii-invoice.xml', 'peppol-ubl-credit-note.xml']) {
      const whole = readInvoiceFacts(sample(name));
      for (const size of [1, 7, 4096]) expect(inChunks(sample(name), size)).toEqual(whole);
    }
  });

  it('reads UTF-16 and ISO-8859-1 documents', () => {
    const text = `<?xml version="1.0" encoding="ISO-8859-1"?><Invoice ${UBL_NS}><cbc:ID>Å-1</cbc:ID></Invoice>`;
    expect(readInvoiceFacts(Buffer.from(text, 'latin1'))?.number).toBe('Å-1');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<Invoice ${UBL_NS}><cbc:ID>ü</cbc:ID></Invoice>`, 'utf16le')]);
    expect(readInvoiceFacts(utf16)?.number).toBe('ü');
  });

  it('keeps character references and the five predefined entities', () => {
    const xml = `<Invoice ${UBL_NS}><cbc:ID>&lt;A&amp;B&gt;&quot;&apos;&#x20AC;&#8364;</cbc:ID></Invoice>`;
    expect(readInvoiceFacts(utf8(xml))?.number).toBe('<A&B>"\'€€');
  });

  it('a UBL Invoice with a credit note type code is a credit note', () => {
    const xml = `<Invoice ${UBL_NS}><cbc:ID>1</cbc:ID><cbc:InvoiceTypeCode>381</cbc:InvoiceTypeCode></Invoice>`;
    expect(readInvoiceFacts(utf8(xml))?.type).toBe('credit_note');
  });

  it('an amount that is not a decimal is not a fact', () => {
    const xml = `<Invoice ${UBL_NS} xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"><cac:LegalMonetaryTotal><cbc:PayableAmount>1,50</cbc:PayableAmount><cbc:TaxExclusiveAmount> 12.5 </cbc:TaxExclusiveAmount></cac:LegalMonetaryTotal></Invoice>`;
    const facts = readInvoiceFacts(utf8(xml));
    expect([facts?.payable, facts?.net]).toEqual([null, '12.5']);
  });
});

describe('what has no facts', () => {
  it.each([
    ['other XML', '<?xml version="1.0"?><note><to>Tove</to></note>'],
    ['an Invoice element in no namespace', '<Invoice><ID>1</ID></Invoice>'],
    ['an Order in UBL', '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>'],
    ['truncated', `<Invoice ${UBL_NS}><cbc:ID>1</cbc:ID>`],
    ['badly nested', `<Invoice ${UBL_NS}><cbc:ID>1</Invoice></cbc:ID>`],
    ['an undeclared entity', `<Invoice ${UBL_NS}><cbc:ID>&nbsp;</cbc:ID></Invoice>`],
    ['an unbound prefix', '<x:Invoice><cbc:ID>1</cbc:ID></x:Invoice>'],
    ['an encoding not read here', `<?xml version="1.0" encoding="EBCDIC-CP-US"?><Invoice ${UBL_NS}/>`],
    ['JSON', '{"invoice": true}'],
    ['empty', ''],
  ])('%s', (_, text) => {
    expect(readInvoiceFacts(utf8(text))).toBeNull();
    expect(inChunks(utf8(text), 3)).toBeNull();
  });

  it('a PDF is not offered to the reader', () => {
    expect(looksLikeXml(utf8('%PDF-1.7\n'), 'application/pdf')).toBe(false);
    expect(looksLikeXml(utf8('  <?xml version="1.0"?>'))).toBe(true);
    expect(looksLikeXml(utf8('<rsm:CrossIndustryInvoice'))).toBe(true);
    expect(looksLikeXml(utf8('hello'), 'text/plain')).toBe(false);
    // An XML media type offers what starts as XML, whatever follows its `<`; nothing else.
    expect(looksLikeXml(utf8('\n <'), 'application/xml')).toBe(true);
    expect(looksLikeXml(utf8('\ufeff<x/>'), 'text/xml')).toBe(true);
    expect(looksLikeXml(utf8('hello'), 'application/xml')).toBe(false);
    expect(looksLikeXml(Buffer.concat([Buffer.from([0x9c]), randomBytes(63)]), 'application/xml')).toBe(false);
    expect(looksLikeXml(new Uint8Array([0xff, 0xfe, 0x3c, 0x00]), 'application/octet-stream')).toBe(true);
    // Fed as an upload feeds it: the reader stops after its first 512 bytes and reads no more.
    const pdf = new InvoiceFactsReader('application/pdf');
    pdf.write(utf8(`%PDF-1.7\n${'x'.repeat(600)}`));
    expect(pdf.wanted).toBe(false);
    expect(pdf.result()).toBeNull();
  });
});

describe('hostile XML is harmless and fast', () => {
  /** Runs `read` and says how long it took; every case must answer null well within a second. */
  const timed = (read: () => unknown) => {
    const began = performance.now();
    const result = read();
    return { result, millis: performance.now() - began };
  };

  it('billion laughs: the DOCTYPE is refused, nothing is expanded', () => {
    const lol = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE Invoice [<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
      ']>',
      `<Invoice ${UBL_NS}><cbc:ID>&lol9;</cbc:ID></Invoice>`,
    ].join('\n');
    const { result, millis } = timed(() => readInvoiceFacts(utf8(lol)));
    expect(result).toBeNull();
    expect(millis).toBeLessThan(500);
  });

  it.each([
    ['a file', '<!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]>'],
    ['the network', '<!DOCTYPE Invoice [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>'],
    ['an external DTD', '<!DOCTYPE Invoice SYSTEM "http://127.0.0.1:9/invoice.dtd">'],
    ['a parameter entity', '<!DOCTYPE Invoice [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>'],
  ])('an external entity to %s is refused, not read', (_, doctype) => {
    const xml = `<?xml version="1.0"?>${doctype}<Invoice ${UBL_NS}><cbc:ID>&x;</cbc:ID></Invoice>`;
    expect(readInvoiceFacts(utf8(xml))).toBeNull();
    expect(inChunks(utf8(xml), 5)).toBeNull();
  });

  it('an entity reference without a DOCTYPE is not expanded', () => {
    expect(readInvoiceFacts(utf8(`<Invoice ${UBL_NS}><cbc:ID>&xxe;</cbc:ID></Invoice>`))).toBeNull();
  });

  it('deep nesting ends at the depth limit, early', () => {
    const open = '<cbc:X>'.repeat(100_000);
    const reader = new InvoiceFactsReader();
    const { millis } = timed(() => {
      reader.write(utf8(`<Invoice ${UBL_NS}>`));
      reader.write(utf8(open));
    });
    expect(reader.wanted).toBe(false);
    expect(reader.result()).toBeNull();
    expect(millis).toBeLessThan(500);
    // 63 levels below the root are fine.
    const ok = `<Invoice ${UBL_NS}>${'<cbc:X>'.repeat(63)}${'</cbc:X>'.repeat(63)}<cbc:ID>1</cbc:ID></Invoice>`;
    expect(readInvoiceFacts(utf8(ok))?.number).toBe('1');
    const deep = `<Invoice ${UBL_NS}>${'<cbc:X>'.repeat(64)}${'</cbc:X>'.repeat(64)}<cbc:ID>1</cbc:ID></Invoice>`;
    expect(readInvoiceFacts(utf8(deep))).toBeNull();
  });

  it('100 MB of nesting: the reader stops at its byte limit and holds no more', () => {
    const reader = new InvoiceFactsReader();
    reader.write(utf8(`<Invoice ${UBL_NS}>`));
    const chunk = utf8('<a>'.repeat(Math.floor((1 << 20) / 3)));
    let fed = 0;
    const { millis } = timed(() => {
      // Past the depth limit the reader wants nothing more; feed the rest anyway, as an upload would.
      while (fed < 100 * 1024 * 1024) {
        reader.write(chunk);
        fed += chunk.byteLength;
      }
    });
    expect(reader.result()).toBeNull();
    expect(millis).toBeLessThan(1000);
    expect(readInvoiceFacts(new Uint8Array(FACTS_MAX_BYTES + 1))).toBeNull();
  });

  it('a huge attribute or text is read within the byte limit and gives no fact', () => {
    const big = 'A'.repeat(FACTS_MAX_BYTES - 1000);
    const attr = `<Invoice ${UBL_NS}><cbc:ID a="${big}">1</cbc:ID></Invoice>`;
    const { result, millis } = timed(() => readInvoiceFacts(utf8(attr)));
    expect(result).toMatchObject({ number: '1' });
    expect(millis).toBeLessThan(2000);
    const text = `<Invoice ${UBL_NS}><cbc:ID>${big}</cbc:ID></Invoice>`;
    expect(readInvoiceFacts(utf8(text))).toMatchObject({ number: null });
    const over = `<Invoice ${UBL_NS}><cbc:ID a="${'A'.repeat(FACTS_MAX_BYTES)}">1</cbc:ID></Invoice>`;
    expect(inChunks(utf8(over), 1 << 20)).toBeNull();
  });

  it('limits ±1: 10 MiB read, one byte more not; 1,024 characters of a fact, one more not', () => {
    const head = `<Invoice ${UBL_NS}><cbc:ID>1</cbc:ID><!--`;
    const tail = '--></Invoice>';
    const padded = (size: number) => utf8(`${head}${'x'.repeat(size - head.length - tail.length)}${tail}`);
    expect(readInvoiceFacts(padded(FACTS_MAX_BYTES))?.number).toBe('1');
    expect(inChunks(padded(FACTS_MAX_BYTES), 1 << 20)?.number).toBe('1');
    expect(readInvoiceFacts(padded(FACTS_MAX_BYTES + 1))).toBeNull();
    expect(inChunks(padded(FACTS_MAX_BYTES + 1), 1 << 20)).toBeNull();
    const id = (n: number) => readInvoiceFacts(utf8(`<Invoice ${UBL_NS}><cbc:ID>${'7'.repeat(n)}</cbc:ID></Invoice>`))?.number;
    expect(id(1024)).toBe('7'.repeat(1024));
    expect(id(1025)).toBeNull();
  });

  it('never throws on arbitrary bytes or arbitrary XML-ish text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.integer({ min: 1, max: 64 }), (bytes, size) => {
        readInvoiceFacts(bytes, 'application/xml');
        inChunks(bytes, size);
      }),
      { numRuns: 500 },
    );
    const pieces = fc.constantFrom(
      `<Invoice ${UBL_NS}>`,
      '</Invoice>',
      '<cbc:ID>',
      '</cbc:ID>',
      '<!DOCTYPE x>',
      '&amp;',
      '&#0;',
      '&#xD800;',
      '<![CDATA[',
      ']]>',
      '<?pi?>',
      '<!--',
      '-->',
      '\uFEFF',
      '\uD800',
      'x',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        readInvoiceFacts(utf8(parts.join('')), 'application/xml');
      }),
      { numRuns: 1000 },
    );
  });
});
