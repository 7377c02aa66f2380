// Invoice facts (docs/api.md, Invoice facts): read from a UBL invoice sent inline and a CII one
// uploaded to a placeholder's url, shown on the file and its entry, found by each filter; hostile
// or other bytes are stored without facts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FACTUR_X_CII_INVOICE_FACTS, XRECHNUNG_UBL_INVOICE_FACTS } from '../../lib/invoices/samples/expected-facts';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256 } from './helpers';

const samples = path.join(__dirname, '../../lib/invoices/samples');
const UBL = readFileSync(path.join(samples, 'xrechnung-ubl-invoice.xml'));
const CII = readFileSync(path.join(samples, 'factur-x-cii-invoice.xml'));

const UBL_FACTS = XRECHNUNG_UBL_INVOICE_FACTS;
const CII_FACTS = FACTUR_X_CII_INVOICE_FACTS;

test.describe('invoice facts', () => {
  test('are read from a UBL invoice sent inline and a CII one uploaded by placeholder, and found by each filter', async ({
    request,
    newOwner,
  }) => {
    const { liveKey } = await newOwner();
    const headers = bearer(liveKey);
    const ublEntry = await createEntry(request, liveKey, { name: 'UBL', folder: 'in/2024' });
    const ciiEntry = await createEntry(request, liveKey, { name: 'CII', folder: 'out/2024' });
    const plain = await createEntry(request, liveKey, { name: 'no invoice' });

    const ubl = await inlineFile(request, liveKey, ublEntry.id, { name: 'invoice.xml', mime: 'application/xml', data: b64(UBL) });
    expect(ubl.facts).toEqual(UBL_FACTS);
    expect(Object.keys(ubl.facts)).toEqual(Object.keys(UBL_FACTS)); // the documented order, as GET answers
    const pdf = await inlineFile(request, liveKey, ublEntry.id, { name: 'invoice.pdf', mime: 'application/pdf', data: b64('%PDF-1.7') });
    expect(pdf.facts).toBeNull();

    const p = await inlineFile(request, liveKey, ciiEntry.id, {
      name: 'factur-x.xml',
      mime: 'text/xml',
      size: CII.length,
      sha256: sha256(CII),
    });
    expect(p.facts).toBeNull();
    // With the owner's credentials PUT {url} answers the full record (without, only what GET {url} tells).
    const put = await request.put(p.url, { data: CII, headers });
    expect(put.status(), await put.text()).toBe(200);
    expect((await put.json()).facts).toEqual(CII_FACTS);
    const files = await (await request.get(`/silo/v1/entries/${ciiEntry.id}/files`, { headers })).json();
    expect(files.list.find((f: { id: string }) => f.id === p.id).facts).toEqual(CII_FACTS);

    // Hostile XML is stored, without facts.
    const xxe = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>&x;</cbc:ID></Invoice>`;
    const hostile = await inlineFile(request, liveKey, plain.id, { name: 'x.xml', mime: 'application/xml', data: b64(xxe) });
    expect(hostile).toMatchObject({ stored: true, facts: null });

    // The entry shows its current versions' facts: in one entry, in the list.
    const one = await (await request.get(`/silo/v1/entries/${ublEntry.id}`, { headers })).json();
    expect(one.facts).toEqual(UBL_FACTS);
    expect(Object.keys(one.facts)).toEqual(Object.keys(UBL_FACTS));
    expect(one.attachments.map((a: { facts: unknown }) => a.facts)).toEqual(expect.arrayContaining([UBL_FACTS, null]));

    const find = async (query: string) => {
      const res = await request.get(`/silo/v1/entries?${query}`, { headers });
      expect(res.status(), await res.text()).toBe(200);
      const body = await res.json();
      return body.list.map((e: { name: string }) => e.name);
    };
    expect(await find('seller_vat=DE123456789')).toEqual(['UBL']);
    expect(await find('seller_vat=de%20123%20456%20789')).toEqual(['UBL']);
    expect(await find('buyer_vat=FR19000000001')).toEqual(['CII']);
    expect(await find('number=FA-2024-0815')).toEqual(['CII']);
    expect(await find('currency=eur')).toEqual(['CII', 'UBL']);
    expect(await find('issued_from=2024-03-01')).toEqual(['UBL']);
    expect(await find('issued_to=2024-02-29')).toEqual(['CII']);
    expect(await find('issued_from=2024-02-29&issued_to=2024-03-15')).toEqual(['CII', 'UBL']);
    expect(await find('currency=EUR&folder=in')).toEqual(['UBL']);
    expect(await find('currency=EUR&q=cii')).toEqual(['CII']);
    expect(await find('number=RE-2024-00042&buyer_vat=FR19000000001')).toEqual([]);
    const list = await (await request.get('/silo/v1/entries?currency=EUR', { headers })).json();
    expect(list.list.find((e: { name: string }) => e.name === 'CII').facts).toEqual(CII_FACTS);
    expect(
      (await (await request.get('/silo/v1/entries', { headers })).json()).list.find((e: { name: string }) => e.name === 'no invoice').facts,
    ).toBeNull();

    // Keyset pages: one entry a page, then the end.
    const first = await (await request.get('/silo/v1/entries?currency=EUR&limit=1', { headers })).json();
    expect(first.list.map((e: { name: string }) => e.name)).toEqual(['CII']);
    const second = await (
      await request.get(`/silo/v1/entries?currency=EUR&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`, { headers })
    ).json();
    expect(second.list.map((e: { name: string }) => e.name)).toEqual(['UBL']);
  });

  test('refuses a filter that is not a day, or a range that ends before it starts, with the error body', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const headers = bearer(liveKey);
    await expectError(await request.get('/silo/v1/entries?issued_from=2024-02-30', { headers }), 422);
    await expectError(await request.get('/silo/v1/entries?issued_from=2024-03-02&issued_to=2024-03-01', { headers }), 422);
    await expectError(await request.get(`/silo/v1/entries?seller_vat=${'A'.repeat(256)}`, { headers }), 422);
    const ok = await request.get(`/silo/v1/entries?seller_vat=${'A'.repeat(255)}`, { headers });
    expect(ok.status()).toBe(200);
  });
});
