// A version's invoice facts as the files row keeps them: the facts as read (`facts`, jsonb) and the
// few the entry list filters by in typed, indexed columns (docs/api.md, Invoice facts).
import { Prisma } from '../../db/generated/client';
import type { InvoiceFacts, InvoiceFactsReader } from '../../invoices/read-facts';

/**
 * A VAT id as it is kept and searched: upper case, without the spaces, dots and dashes people
 * write in it (`de 123.456.789` finds `DE123456789`).
 */
export const normalVatId = (s: string) => s.toUpperCase().replace(/[\s.\-/]+/g, '');

/** The row's fact columns, as Prisma names them. */
export function factColumns(facts: InvoiceFacts | null) {
  return {
    facts: facts ?? Prisma.DbNull,
    factSellerVat: facts?.seller.vat_id ? normalVatId(facts.seller.vat_id) : null,
    factBuyerVat: facts?.buyer.vat_id ? normalVatId(facts.buyer.vat_id) : null,
    factNumber: facts?.number ?? null,
    factIssueDate: facts?.issue_date ? new Date(`${facts.issue_date}T00:00:00Z`) : null,
    factCurrency: facts?.currency ? facts.currency.toUpperCase() : null,
  };
}

/** The fact columns' values in the order of FACT_COLUMN_NAMES, as SQL parameters. */
export function factValuesSql(facts: InvoiceFacts | null): Prisma.Sql {
  const c = factColumns(facts);
  return Prisma.sql`${facts ? JSON.stringify(facts) : null}::jsonb, ${c.factSellerVat}, ${c.factBuyerVat}, ${c.factNumber},
    ${facts?.issue_date ?? null}::date, ${c.factCurrency}`;
}

export const FACT_COLUMN_NAMES = Prisma.raw('facts, fact_seller_vat, fact_buyer_vat, fact_number, fact_issue_date, fact_currency');

/** `SET` of the fact columns, for a placeholder's completion. */
export function setFactsSql(facts: InvoiceFacts | null): Prisma.Sql {
  return Prisma.sql`(${FACT_COLUMN_NAMES}) = (${factValuesSql(facts)})`;
}

type Source = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * Passes `source` through unchanged while the reader reads the facts of the bytes it carries, so
 * an upload's bytes are read once. The reader looks at the first bytes and the media type and
 * stops at once for anything that is not XML, and at its byte limit for anything larger.
 */
export async function* tappedForFacts(source: Source, reader: InvoiceFactsReader): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    if (reader.wanted) reader.write(chunk);
    yield chunk;
  }
}

/**
 * Facts as the API shows them, keys in their documented order: jsonb keeps its own key order
 * (shortest first), so a record read back from the database and one just made must both be
 * written from this to be the same bytes.
 */
export function presentFacts(value: unknown): InvoiceFacts | null {
  if (value === null || value === undefined || typeof value !== 'object') return null;
  const f = value as InvoiceFacts;
  return {
    syntax: f.syntax,
    type: f.type,
    number: f.number,
    issue_date: f.issue_date,
    due_date: f.due_date,
    currency: f.currency,
    seller: { name: f.seller.name, vat_id: f.seller.vat_id },
    buyer: { name: f.buyer.name, vat_id: f.buyer.vat_id },
    net: f.net,
    tax: f.tax,
    payable: f.payable,
  };
}
