// What UBL 2.1 and UN/CEFACT CII say an invoice's facts are: the namespaces, the element paths each
// fact is read from, and how a draft of what was read becomes the facts (docs/api.md, Invoice
// facts). read-facts.ts walks the bytes safely and asks this module what to keep.

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

const NS = {
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

export const UBL_PARTS = new Set<string>([NS.cac, NS.cbc]);
export const CII_PARTS = new Set<string>([NS.rsm, NS.ram, NS.udt]);

/** UNTDID 1001 document types that credit (EN 16931's credit note codes and their kin). */
const CREDIT_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

export type Draft = {
  syntax: 'ubl' | 'cii';
  root: string;
  typeCode: string | null;
  fields: Map<string, string>;
  taxes: { currency: string | null; amount: string }[];
  vat: Record<'seller' | 'buyer', { vat: string | null; other: string | null }>;
  scheme: { id: string | null; scheme: string | null };
};

export function draftFor(uri: string, local: string): Draft | null {
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

export const WANTED = new Set<string>([
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

export function record(draft: Draft, at: string, text: string, attrs: Record<string, string>): void {
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
export const ENDS = new Map<string, (draft: Draft) => void>(
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

export function finish(draft: Draft): InvoiceFacts {
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
