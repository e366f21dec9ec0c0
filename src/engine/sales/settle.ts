/**
 * What settles an issued invoice or bill: its payments and the credit
 * allocated to it from credit notes. After any of them is added or
 * removed, the document's amounts and status are worked out again from
 * those records, never adjusted by difference:
 *   amountPaid = Σ payments, amountCredited = Σ allocations,
 *   amountDue  = total − amountPaid − amountCredited;
 * an open document with nothing left due is paid, on the date of the last
 * payment or allocation; a paid one with something due again goes back to
 * sent (approved for a bill), or overdue when its due date has passed.
 */
import type { Kysely } from 'kysely';
import { timestamp, today, type Clock } from '../clock.js';
import { findDocument, openStatuses, type Kind } from './documents.js';
import type { InvoicesTable, OrgDb } from '../../store/tables.js';

export interface Settled {
  readonly row: InvoicesTable;
  /** paid: it has just been settled in full; reopened: it was paid and is owed again. */
  readonly change: 'paid' | 'reopened' | null;
}

const latest = (dates: readonly (string | null | undefined)[]): string | null =>
  dates.reduce<string | null>((max, d) => (d != null && (max === null || d > max) ? d : max), null);

export async function settle(trx: Kysely<OrgDb>, k: Kind, clock: Clock, id: string): Promise<Settled> {
  const row = await findDocument(trx, k, id);
  const [paid, credited] = await Promise.all([
    trx
      .selectFrom('payments')
      .select((eb) => [eb.fn.sum<number>('amount').as('amount'), eb.fn.max('date').as('date')])
      .where('invoice_id', '=', id)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('credit_allocations')
      .select((eb) => [eb.fn.sum<number>('amount').as('amount'), eb.fn.max('date').as('date')])
      .where('invoice_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  const amountPaid = Number(paid.amount ?? 0);
  const amountCredited = Number(credited.amount ?? 0);
  const due = row.total - amountPaid - amountCredited;
  let status = row.status;
  let paidDate = row.paid_date;
  let change: Settled['change'] = null;
  if (due === 0 && openStatuses(k).includes(row.status)) {
    status = 'paid';
    paidDate = latest([paid.date, credited.date]);
    change = 'paid';
  } else if (due > 0 && row.status === 'paid') {
    status = row.due_date < today(clock) ? 'overdue' : k.issued;
    paidDate = null;
    change = 'reopened';
  }
  const changes: Partial<InvoicesTable> = {
    amount_paid: amountPaid,
    amount_credited: amountCredited,
    status,
    paid_date: paidDate,
    updated_at: timestamp(clock),
  };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  return { row: { ...row, ...changes }, change };
}
