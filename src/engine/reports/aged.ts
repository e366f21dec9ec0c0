/**
 * Aged debtors (sales invoices) and aged creditors (purchase bills) at a
 * date: what each contact still owes, or is owed, by how many days it is
 * past due. A document counts when it was issued (sent, overdue or paid
 * now; drafts and void ones never) on or before the date; what was paid
 * on or before the date is deducted, so the report at a past date shows
 * the debts of that day. Buckets by days overdue (date − dueDate):
 * current (0 or less), 1-30, 31-60, 61-90, 90+ (91 or more).
 * Credit allocated to a document on or before the date is deducted like a
 * payment; credit notes issued by the date with credit not yet allocated
 * or refunded by then are rows of their own, negative, in the current
 * bucket, so a contact's total is what they owe net of credit and the
 * report's total equals the control account's balance at that date.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { daysBetween } from '../dates.js';
import { pence } from '../schema.js';
import { day, idOut } from '../output.js';
import { sum } from './balances.js';
import type { InvoiceKind, OrgDb } from '../../store/tables.js';

export const buckets = ['current', 'days1to30', 'days31to60', 'days61to90', 'days90plus'] as const;
export type Bucket = (typeof buckets)[number];
const bucketLabels = ['current', '1-30', '31-60', '61-90', '90+'] as const;

const labels: Readonly<Record<Bucket, (typeof bucketLabels)[number]>> = {
  current: 'current',
  days1to30: '1-30',
  days31to60: '31-60',
  days61to90: '61-90',
  days90plus: '90+',
};

export function bucketOf(daysOverdue: number): Bucket {
  if (daysOverdue <= 0) return 'current';
  if (daysOverdue <= 30) return 'days1to30';
  if (daysOverdue <= 60) return 'days31to60';
  if (daysOverdue <= 90) return 'days61to90';
  return 'days90plus';
}

const bucketTotals = {
  current: pence(),
  days1to30: pence(),
  days31to60: pence(),
  days61to90: pence(),
  days90plus: pence(),
  total: pence(),
};
type Totals = Record<Bucket | 'total', number>;

const agedEntry = z.strictObject({
  id: z.string().describe('the invoice, bill or credit note'),
  type: z.enum(['invoice', 'credit_note']),
  invoiceNumber: z.string().nullable().describe('the number of the invoice, bill or credit note'),
  issueDate: day(),
  dueDate: day().describe("a credit note's own date"),
  total: pence().describe('negative for a credit note: credit owed to the contact'),
  amountPaid: pence().describe('paid by the report date; for a credit note, minus what was allocated or refunded'),
  amountCredited: pence().describe('credit allocated by the report date'),
  outstanding: pence(),
  daysOverdue: z.number().int().describe('report date − due date, never below 0; 0 for a credit note'),
  agingBucket: z.enum(bucketLabels),
});
type AgedEntry = z.output<typeof agedEntry>;

export const agedReportSchema = z.strictObject({
  reportDate: day(),
  reportTitle: z.enum(['Aged Debtors', 'Aged Creditors']),
  contacts: z
    .array(z.strictObject({ contactId: idOut('cont'), contactName: z.string(), invoices: z.array(agedEntry), ...bucketTotals }))
    .describe('by name: each contact with something outstanding, its documents by due date and its totals by bucket'),
  totals: z.strictObject(bucketTotals),
  summary: z.strictObject({
    totalContacts: z.number().int(),
    totalInvoices: z.number().int().describe('the invoices (or bills) listed; credit notes, listed beside them, are not counted'),
  }),
});
export type AgedReport = z.output<typeof agedReportSchema>;

const zero = (): Totals => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, days90plus: 0, total: 0 });

/** Sums of `table`'s amounts on or before the date, by `key`. */
function sumsBy(db: Kysely<OrgDb>, table: 'payments' | 'credit_allocations' | 'refunds', key: 'invoice_id' | 'credit_note_id', asOfDate: string) {
  return db
    .selectFrom(table)
    .select((eb) => [eb.ref(key).as('key'), eb.fn.sum<number>('amount').as('amount')])
    .where('date', '<=', asOfDate)
    .groupBy(key);
}

export async function agedReport(db: Kysely<OrgDb>, kind: InvoiceKind, asOfDate: string): Promise<AgedReport> {
  const paid = sumsBy(db, 'payments', 'invoice_id', asOfDate).as('paid');
  const credited = sumsBy(db, 'credit_allocations', 'invoice_id', asOfDate).as('credited');
  const rows = await db
    .selectFrom('invoices')
    .innerJoin('contacts', 'contacts.id', 'invoices.contact_id')
    .leftJoin(paid, 'paid.key', 'invoices.id')
    .leftJoin(credited, 'credited.key', 'invoices.id')
    .select([
      'invoices.id',
      'invoices.number',
      'invoices.issue_date',
      'invoices.due_date',
      'invoices.total',
      'invoices.contact_id',
      'contacts.name as contact_name',
      'paid.amount as paid',
      'credited.amount as credited',
    ])
    .where('invoices.kind', '=', kind)
    .where('invoices.status', 'in', ['sent', 'approved', 'overdue', 'paid'])
    .where('invoices.issue_date', '<=', asOfDate)
    .orderBy('invoices.due_date')
    .orderBy('invoices.number')
    .orderBy('invoices.id')
    .execute();
  const allocated = sumsBy(db, 'credit_allocations', 'credit_note_id', asOfDate).as('allocated');
  const refunded = sumsBy(db, 'refunds', 'credit_note_id', asOfDate).as('refunded');
  const notes = await db
    .selectFrom('credit_notes')
    .innerJoin('contacts', 'contacts.id', 'credit_notes.contact_id')
    .leftJoin(allocated, 'allocated.key', 'credit_notes.id')
    .leftJoin(refunded, 'refunded.key', 'credit_notes.id')
    .select([
      'credit_notes.id',
      'credit_notes.number',
      'credit_notes.date',
      'credit_notes.total',
      'credit_notes.contact_id',
      'contacts.name as contact_name',
      'allocated.amount as allocated',
      'refunded.amount as refunded',
    ])
    .where('credit_notes.kind', '=', kind)
    .where('credit_notes.status', '=', 'issued')
    .where('credit_notes.date', '<=', asOfDate)
    .orderBy('credit_notes.date')
    .orderBy('credit_notes.id')
    .execute();

  const entries = [
    ...rows.map((r) => ({
      contactId: r.contact_id,
      contactName: r.contact_name,
      entry: row(r, Number(r.paid ?? 0), Number(r.credited ?? 0), asOfDate, 'invoice'),
    })),
    ...notes.map((n) => {
      // Credit used up (allocated or refunded) counts against the negative total as a payment would against an invoice's.
      const used = Number(n.allocated ?? 0) + Number(n.refunded ?? 0);
      const credit = { id: n.id, number: n.number, issue_date: n.date, due_date: n.date, total: -n.total };
      return { contactId: n.contact_id, contactName: n.contact_name, entry: row(credit, -used, 0, asOfDate, 'credit_note') };
    }),
  ].filter((e) => e.entry.outstanding !== 0);
  entries.sort((a, b) =>
    a.contactName < b.contactName ? -1 : a.contactName > b.contactName ? 1 : a.contactId < b.contactId ? -1 : a.contactId > b.contactId ? 1 : 0,
  );

  const contacts: { contactId: string; contactName: string; invoices: (AgedEntry & { bucket: Bucket })[]; totals: Totals }[] = [];
  const totals = zero();
  for (const { contactId, contactName, entry } of entries) {
    const outstanding = entry.outstanding;
    let contact = contacts[contacts.length - 1];
    if (contact?.contactId !== contactId) {
      contact = { contactId, contactName, invoices: [], totals: zero() };
      contacts.push(contact);
    }
    contact.invoices.push(entry);
    contact.totals[entry.bucket] += outstanding;
    contact.totals.total += outstanding;
    totals[entry.bucket] += outstanding;
    totals.total += outstanding;
  }
  return {
    reportDate: asOfDate,
    reportTitle: kind === 'sales' ? 'Aged Debtors' : 'Aged Creditors',
    contacts: contacts.map((c) => ({
      contactId: c.contactId,
      contactName: c.contactName,
      invoices: c.invoices.map(({ bucket: _bucket, ...shown }) => shown),
      ...c.totals,
    })),
    totals,
    summary: { totalContacts: contacts.length, totalInvoices: sum(contacts.map((c) => c.invoices.filter((i) => i.type === 'invoice').length)) },
  };
}

/** A document's row; a credit note's amounts are negative (credit is owed to the contact) and it is never overdue. */
function row(
  r: { id: string; number: string | null; issue_date: string; due_date: string; total: number },
  amountPaid: number,
  amountCredited: number,
  asOfDate: string,
  type: 'invoice' | 'credit_note',
): AgedEntry & { bucket: Bucket } {
  const outstanding = r.total - amountPaid - amountCredited;
  const daysOverdue = type === 'credit_note' ? 0 : Math.max(daysBetween(r.due_date, asOfDate), 0);
  const bucket = bucketOf(daysOverdue);
  return {
    id: r.id,
    type,
    invoiceNumber: r.number,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    total: r.total,
    amountPaid,
    amountCredited,
    outstanding,
    daysOverdue,
    agingBucket: labels[bucket],
    bucket,
  };
}
