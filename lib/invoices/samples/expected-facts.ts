// The facts two of the samples hold, as docs/api.md (Invoice facts) shapes them: what the reader's
// unit tests and the API spec both expect of them.
export const XRECHNUNG_UBL_INVOICE_FACTS = {
  syntax: 'ubl',
  type: 'invoice',
  number: 'RE-2024-00042',
  issue_date: '2024-03-15',
  due_date: '2024-04-14',
  currency: 'EUR',
  seller: { name: 'Lieferant & Söhne GmbH', vat_id: 'DE123456789' },
  buyer: { name: 'Kunde AG', vat_id: 'DE987654321' },
  net: '1000.00',
  tax: '190.00',
  payable: '1190.00',
};

export const FACTUR_X_CII_INVOICE_FACTS = {
  syntax: 'cii',
  type: 'invoice',
  number: 'FA-2024-0815',
  issue_date: '2024-02-29',
  due_date: '2024-03-30',
  currency: 'EUR',
  seller: { name: 'Au bon moulin', vat_id: 'FR11999999998' },
  buyer: { name: 'Ma jolie boutique', vat_id: 'FR19000000001' },
  net: '624.90',
  tax: '124.98',
  payable: '749.88',
};
