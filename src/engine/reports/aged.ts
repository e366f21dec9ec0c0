/**
 * Aged debtors (sales invoices) and aged creditors (purchase bills) at a
 * date: what each contact still owes, or is owed, by how many days it is
 * past due. A document counts when it was issued (sent, overdue or paid
 * now; drafts and void ones never) on or before the date; what was paid
 * on or before the date is deducted, so the report at a past date shows
 * the debts of that day. Buckets by days overdue (date − dueDate):
 * current (0 or less), 1-30, 31-60, 61-90, 90+ (91 or more).
 */
import type { Kysely } from 'kysely';
import { daysBetween } from '../dates.js';
import { sum } from './balances.js';
import type { InvoiceKind, OrgDb } from '../../store/tables.js';

export const buckets = ['current', 'days1to30', 'days31to60', 'days61to90', 'days90plus'] as const;
export type Bucket = (typeof buckets)[number];

const labels: Readonly<Record<Bucket, string>> = {
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

type Totals = Record<Bucket | 'total', number>;

const zero = (): Totals => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, days90plus: 0, total: 0 });

export async function agedReport(db: Kysely<OrgDb>, kind: InvoiceKind, asOfDate: string) {
  const paid = db
    .selectFrom('payments')
    .select((eb) => ['payments.invoice_id', eb.fn.sum<number>('payments.amount').as('paid')])
    .where('payments.date', '<=', asOfDate)
    .groupBy('payments.invoice_id')
    .as('paid');
  const rows = await db
    .selectFrom('invoices')
    .innerJoin('contacts', 'contacts.id', 'invoices.contact_id')
    .leftJoin(paid, 'paid.invoice_id', 'invoices.id')
    .select([
      'invoices.id',
      'invoices.number',
      'invoices.issue_date',
      'invoices.due_date',
      'invoices.total',
      'invoices.contact_id',
      'contacts.name as contact_name',
      'paid.paid',
    ])
    .where('invoices.kind', '=', kind)
    .where('invoices.status', 'in', ['sent', 'approved', 'overdue', 'paid'])
    .where('invoices.issue_date', '<=', asOfDate)
    .orderBy('contacts.name')
    .orderBy('invoices.contact_id')
    .orderBy('invoices.due_date')
    .orderBy('invoices.number')
    .orderBy('invoices.id')
    .execute();

  const contacts: { contactId: string; contactName: string; invoices: ReturnType<typeof row>[]; totals: Totals }[] = [];
  const totals = zero();
  for (const r of rows) {
    const amountPaid = Number(r.paid ?? 0);
    const outstanding = r.total - amountPaid;
    if (outstanding === 0) continue;
    const entry = row(r, amountPaid, outstanding, asOfDate);
    let contact = contacts[contacts.length - 1];
    if (contact?.contactId !== r.contact_id) {
      contact = { contactId: r.contact_id, contactName: r.contact_name, invoices: [], totals: zero() };
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
    summary: { totalContacts: contacts.length, totalInvoices: sum(contacts.map((c) => c.invoices.length)) },
  };
}

function row(
  r: { id: string; number: string | null; issue_date: string; due_date: string; total: number },
  amountPaid: number,
  outstanding: number,
  asOfDate: string,
) {
  const daysOverdue = Math.max(daysBetween(r.due_date, asOfDate), 0);
  const bucket = bucketOf(daysOverdue);
  return {
    id: r.id,
    invoiceNumber: r.number,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    total: r.total,
    amountPaid,
    outstanding,
    daysOverdue,
    agingBucket: labels[bucket],
    bucket,
  };
}
