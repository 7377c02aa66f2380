// An invoice's facts as the API shows them on a file and an entry (docs/api.md, Invoice facts);
// read by lib/invoices/read-facts.ts, whose InvoiceFacts type this schema describes.
import { z } from 'zod';

const day = z.string().nullable().meta({ description: 'YYYY-MM-DD', example: '2026-03-15' });
const amount = (example: string) => z.string().nullable().meta({ description: 'A decimal exactly as the invoice writes it', example });
const Party = z
  .object({
    name: z.string().nullable().meta({ example: 'Lieferant GmbH' }),
    vat_id: z.string().nullable().meta({ description: 'The VAT identifier as written', example: 'DE123456789' }),
  })
  .meta({ id: 'InvoiceParty' });

export const InvoiceFacts = z
  .object({
    syntax: z.enum(['ubl', 'cii']).meta({ description: 'UBL 2.1 (Invoice, CreditNote) or UN/CEFACT CII (Factur-X, ZUGFeRD, XRechnung)' }),
    type: z.enum(['invoice', 'credit_note']),
    number: z.string().nullable().meta({ example: 'RE-2026-0042' }),
    issue_date: day,
    due_date: day,
    currency: z.string().nullable().meta({ example: 'EUR' }),
    seller: Party,
    buyer: Party,
    net: amount('1000.00'),
    tax: amount('190.00'),
    payable: amount('1190.00'),
  })
  .meta({
    id: 'InvoiceFacts',
    description: "What an e-invoice's bytes say, read when the version is stored; null when the bytes are not a UBL or CII invoice",
  });
