// What an e-invoice file says (its `facts`), in its file card: type, number, dates, the parties
// and the totals, as the invoice writes them.
import type { FileRecord } from '@/lib/schemas/records';

type Facts = NonNullable<FileRecord['facts']>;

const party = (p: Facts['seller']) => [p.name, p.vat_id && `VAT ${p.vat_id}`].filter(Boolean).join(' · ') || '—';
const money = (amount: string | null, currency: string | null) => (amount === null ? '—' : `${amount} ${currency ?? ''}`.trim());

export function InvoiceFactsList({ facts }: { facts: Facts }) {
  const rows: [string, string][] = [
    [facts.type === 'credit_note' ? 'Credit note' : 'Invoice', facts.number ?? '—'],
    ['Issued', facts.issue_date ?? '—'],
    ['Due', facts.due_date ?? '—'],
    ['Seller', party(facts.seller)],
    ['Buyer', party(facts.buyer)],
    ['Net', money(facts.net, facts.currency)],
    ['Tax', money(facts.tax, facts.currency)],
    ['Payable', money(facts.payable, facts.currency)],
  ];
  return (
    <section className="invoice-facts" aria-label="Invoice facts">
      <div className="muted" style={{ fontSize: '0.78rem' }}>
        Invoice facts ({facts.syntax === 'ubl' ? 'UBL' : 'CII'})
      </div>
      <dl
        className="facts-grid"
        style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.15rem 0.8rem', margin: '0.3rem 0' }}
      >
        {rows.map(([term, value]) => (
          <div key={term} style={{ display: 'contents' }}>
            <dt className="muted">{term}</dt>
            <dd style={{ margin: 0 }}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
