/** The list of invoices or bills: its query (pagination A, filters, sort) and one page of it. */
import type { Kysely } from 'kysely';
import { checkRange } from '../schema.js';
import { listPage, numberLength, pageQuery, sortQuery, type PageMeta, type Sort } from '../pagination.js';
import type { Kind } from './documents.js';
import type { InvoicesTable, InvoiceStatus, OrgDb } from '../../store/tables.js';

/** The list query of invoices and bills: pagination A and sort by date, total or number. */
export function listQuery(numberField: 'invoiceNumber' | 'billNumber') {
  return { ...pageQuery(20), ...sortQuery<string>(['createdAt', 'issueDate', 'dueDate', 'total', numberField]) };
}

export interface ListInput {
  readonly status?: InvoiceStatus | undefined;
  readonly contactId?: string | undefined;
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
  readonly page: number;
  readonly limit: number;
  readonly sort: Sort<string>;
}

const sortColumns: Readonly<Record<string, 'invoices.created_at' | 'invoices.issue_date' | 'invoices.due_date' | 'invoices.total' | 'invoices.number'>> = {
  createdAt: 'invoices.created_at',
  issueDate: 'invoices.issue_date',
  dueDate: 'invoices.due_date',
  total: 'invoices.total',
  invoiceNumber: 'invoices.number',
  billNumber: 'invoices.number',
};

/** A page of documents without lines (each as `view` makes it), filtered by status, contact and issue date (both ends inclusive). */
export async function listDocuments<S>(
  db: Kysely<OrgDb>,
  k: Kind,
  input: ListInput,
  view: (row: InvoicesTable, contactName: string) => S,
): Promise<{ data: S[]; meta: PageMeta }> {
  checkRange(input.fromDate, input.toDate, ['fromDate', 'toDate']);
  let q = db.selectFrom('invoices').innerJoin('contacts', 'contacts.id', 'invoices.contact_id').where('invoices.kind', '=', k.kind);
  if (input.status) q = q.where('invoices.status', '=', input.status);
  if (input.contactId) q = q.where('invoices.contact_id', '=', input.contactId);
  if (input.fromDate) q = q.where('invoices.issue_date', '>=', input.fromDate);
  if (input.toDate) q = q.where('invoices.issue_date', '<=', input.toDate);
  const { rows, meta } = await listPage(
    q,
    (all) => {
      const column = sortColumns[input.sort.field] ?? 'invoices.created_at';
      const rows = all.selectAll('invoices').select('contacts.name as contact_name');
      return (column === 'invoices.number' ? rows.orderBy(numberLength(column), input.sort.direction) : rows)
        .orderBy(column, input.sort.direction)
        .orderBy('invoices.id', input.sort.direction);
    },
    input,
  );
  return { data: rows.map(({ contact_name, ...row }) => view(row, contact_name)), meta };
}
