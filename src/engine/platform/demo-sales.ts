/**
 * The demo's customers, supplier, invoices, bill and quote, made through
 * the same functions as the API, dated back from today: one invoice paid,
 * one part paid, one overdue, one draft; a bill due soon; a sent quote.
 */
import type { Kysely } from 'kysely';
import { addDays } from '../dates.js';
import { newId } from '../ids.js';
import { timestamp } from '../clock.js';
import type { Posting } from '../ledger/posting.js';
import { purchaseBill, salesInvoice } from '../sales/documents.js';
import { createDocument, issueDocument } from '../sales/document-lifecycle.js';
import { recordPayment } from '../sales/payments.js';
import { sweepOverdue } from '../sales/overdue.js';
import type { ContactsTable, OrgDb } from '../../store/tables.js';

const contacts = [
  { name: 'Calder Valley Homes', type: 'customer', email: 'accounts@caldervalleyhomes.example', city: 'Hebden Bridge', terms: 30 },
  { name: 'The Old Mill Café', type: 'customer', email: 'hello@oldmillcafe.example', city: 'Todmorden', terms: 14 },
  { name: 'Moorside Lettings', type: 'customer', email: 'office@moorside.example', city: 'Halifax', terms: 30 },
  { name: 'Pennine Timber', type: 'supplier', email: 'sales@penninetimber.example', city: 'Huddersfield', terms: 30 },
] as const;

export async function seedDemoSales(trx: Kysely<OrgDb>, posting: Posting, today: string): Promise<void> {
  const now = timestamp(posting.clock);
  const ids: string[] = [];
  for (const c of contacts) {
    const row: ContactsTable = {
      id: newId('cont', posting.clock.now()),
      contact_type: c.type,
      name: c.name,
      company: c.name,
      email: c.email,
      email_key: c.email,
      phone: null,
      address_line1: null,
      address_line2: null,
      city: c.city,
      region: 'West Yorkshire',
      postal_code: null,
      country: 'United Kingdom',
      vat_number: null,
      company_number: null,
      payment_terms: c.terms,
      currency: 'GBP',
      bank_name: null,
      bank_sort_code: null,
      bank_account: null,
      bank_iban: null,
      is_active: 1,
      notes: null,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('contacts').values(row).execute();
    ids.push(row.id);
  }
  const [homes, cafe, lettings, timber] = ids as [string, string, string, string];
  const invoice = async (contactId: string, daysAgo: number, items: { description: string; quantity: number; unitPrice: number }[], send = true) => {
    const row = await createDocument(trx, salesInvoice, posting, {
      contactId,
      issueDate: addDays(today, -daysAgo),
      items: items.map((i) => ({ ...i, vatRate: 'standard' as const })),
    });
    return send ? issueDocument(trx, salesInvoice, posting, row.id) : row;
  };
  const paid = await invoice(homes, 50, [{ description: 'Oak staircase, fitted', quantity: 1, unitPrice: 420_000 }]);
  await recordPayment(trx, salesInvoice, posting, paid.id, { amount: paid.total, date: addDays(today, -25), method: 'bank_transfer' });
  const part = await invoice(lettings, 20, [
    { description: 'Sash window repairs', quantity: 6, unitPrice: 18_500 },
    { description: 'Joiner, hours', quantity: 7.5, unitPrice: 3_800 },
  ]);
  await recordPayment(trx, salesInvoice, posting, part.id, { amount: 60_000, date: addDays(today, -5), method: 'bank_transfer' });
  await invoice(cafe, 40, [{ description: 'Shop counter in reclaimed pine', quantity: 1, unitPrice: 165_000 }]);
  await invoice(homes, 1, [{ description: 'Fitted wardrobes, deposit', quantity: 1, unitPrice: 150_000 }], false);
  const bill = await createDocument(trx, purchaseBill, posting, {
    contactId: timber,
    number: 'PT-4471',
    issueDate: addDays(today, -12),
    dueDays: 30,
    items: [{ description: 'Oak boards, 25 mm', quantity: 40, unitPrice: 2_150, vatRate: 'standard' }],
  });
  await issueDocument(trx, purchaseBill, posting, bill.id);
  await sweepOverdue(trx, posting);
}
