/**
 * What sales invoices and purchase bills share: one table (by kind), the
 * draft → issued → paid / overdue / void life, and their ledger entries:
 * a system-generated transaction made as a draft with the document, posted
 * when it is issued (an invoice sent, a bill approved), removed when it is
 * voided. The rules that differ between the two kinds are in `Kind`.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { checkRange } from '../schema.js';
import { pageMeta, pageOffset, pageQuery, sortQuery, type Sort } from '../pagination.js';
import { newId } from '../ids.js';
import { timestamp, today } from '../clock.js';
import { addDays } from '../dates.js';
import { loadOrganisation } from '../organisation/organisation.js';
import { createTransaction, removeTransaction, replaceDraft, setTransactionStatus, type LineInput, type Posting, type TransactionInput } from '../ledger/posting.js';
import { findContact } from './contacts.js';
import { allocateNumber, invoiceNumbers } from './document-numbers.js';
import { itemInputsOf, itemView, loadItems, priceItems, saveItems, type ItemInput, type Priced } from './items.js';
import type { AccountsTable, ContactsTable, InvoiceKind, InvoicesTable, InvoiceStatus, OrgDb } from '../../store/tables.js';

export interface Kind {
  readonly kind: InvoiceKind;
  readonly noun: 'invoice' | 'bill';
  readonly idPrefix: 'inv' | 'bill';
  /** The status once issued: an invoice is sent, a bill approved. */
  readonly issued: Extract<InvoiceStatus, 'sent' | 'approved'>;
  /** Accounts receivable (1100) or payable (2100). */
  readonly controlCode: string;
  /** VAT output (2200) or input (2201). */
  readonly vatCode: string;
  /** The account of a line that names none: sales 4000, cost of sales 5000. */
  readonly defaultAccountCode: string;
  /** The account types a line may post to. */
  readonly lineAccountTypes: readonly AccountsTable['account_type'][];
  /** +1: lines are debits and the control account is credited (bills); −1 the reverse (invoices). */
  readonly lineSign: 1 | -1;
  readonly contactTypes: readonly ContactsTable['contact_type'][];
  readonly sourceType: 'invoice' | 'bill';
}

export const salesInvoice: Kind = {
  kind: 'sales',
  noun: 'invoice',
  idPrefix: 'inv',
  issued: 'sent',
  controlCode: '1100',
  vatCode: '2200',
  defaultAccountCode: '4000',
  lineAccountTypes: ['revenue'],
  lineSign: -1,
  contactTypes: ['customer', 'both'],
  sourceType: 'invoice',
};

export const purchaseBill: Kind = {
  kind: 'purchase',
  noun: 'bill',
  idPrefix: 'bill',
  issued: 'approved',
  controlCode: '2100',
  vatCode: '2201',
  defaultAccountCode: '5000',
  lineAccountTypes: ['expense', 'asset'],
  lineSign: 1,
  contactTypes: ['supplier', 'both'],
  sourceType: 'bill',
};

/** The statuses in which a document is issued and unpaid: what is owed. */
export const openStatuses = (k: Kind): InvoiceStatus[] => [k.issued, 'overdue'];

export async function findDocument(db: Kysely<OrgDb>, k: Kind, id: string): Promise<InvoicesTable> {
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).where('kind', '=', k.kind).executeTakeFirst();
  if (!row) throw new AppError('not_found', `${k.noun} ${id} not found`);
  return row;
}

/** What is still owed: the total less payments and credit allocated; nothing once paid or void. */
export const amountDue = (row: InvoicesTable): number =>
  row.status === 'paid' || row.status === 'void' ? 0 : row.total - row.amount_paid - row.amount_credited;

/** Refuse a change that only a draft allows: paid 409 already_paid, void 409 already_voided, otherwise 422. */
export function refuseUnlessDraft(k: Kind, row: InvoicesTable, what: string): void {
  if (row.status === 'draft') return;
  const name = row.number ?? row.id;
  if (row.status === 'paid') throw new AppError('already_paid', `${k.noun} ${name} is paid and cannot be ${what}`);
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is void and cannot be ${what}`);
  throw new AppError('unprocessable_entity', `${k.noun} ${name} is ${row.status}: only a draft can be ${what} (${k.noun}s are immutable once issued)`);
}

export async function accountByCode(db: Kysely<OrgDb>, code: string): Promise<AccountsTable> {
  const row = await db.selectFrom('accounts').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('unprocessable_entity', `the chart has no account ${code}, which ${code === '1200' ? 'payments' : 'invoices and bills'} post to`);
  return row;
}

export interface DocumentInput {
  readonly contactId: string;
  readonly currency?: string | undefined;
  readonly items: readonly ItemInput[];
  readonly issueDate?: string | undefined;
  readonly dueDate?: string | undefined;
  readonly dueDays?: number | undefined;
  readonly notes?: string | null | undefined;
  readonly reference?: string | null | undefined;
  /** A bill's number: the supplier's invoice number. Invoices are numbered by the organisation. */
  readonly number?: string | null | undefined;
}

/** The contact a document is for: it must exist, be active and be of the right type (400 on contactId otherwise). */
async function contactFor(db: Kysely<OrgDb>, k: Kind, id: string): Promise<ContactsTable> {
  const contact = await findContact(db, id).catch(() => {
    throw new AppError('validation_error', `contactId: no contact ${id} in this organisation`, 'contactId');
  });
  if (contact.is_active !== 1) throw new AppError('validation_error', `contactId: contact ${contact.name} is inactive; reactivate it first`, 'contactId');
  if (!k.contactTypes.includes(contact.contact_type)) {
    throw new AppError('validation_error', `contactId: ${contact.name} is a ${contact.contact_type}; a${k.noun === 'invoice' ? 'n invoice' : ' bill'} needs a ${k.contactTypes[0]} (or both)`, 'contactId');
  }
  return contact;
}

/** Each line's account: the one named (of the right type and active) or the default. */
async function lineAccounts(db: Kysely<OrgDb>, k: Kind, items: readonly ItemInput[]): Promise<string[]> {
  const fallback = await accountByCode(db, k.defaultAccountCode);
  const named = [...new Set(items.flatMap((i) => (i.accountId ? [i.accountId] : [])))];
  const found = named.length === 0 ? [] : await db.selectFrom('accounts').selectAll().where('id', 'in', named).execute();
  const byId = new Map(found.map((a) => [a.id, a]));
  return items.map((item, i) => {
    if (!item.accountId) return fallback.id;
    const field = `items[${i}].accountId`;
    const account = byId.get(item.accountId);
    if (!account) throw new AppError('validation_error', `${field}: no account ${item.accountId} in this organisation`, field);
    if (!k.lineAccountTypes.includes(account.account_type)) {
      throw new AppError('validation_error', `${field}: ${account.code} ${account.name} is ${account.account_type}; ${k.noun} lines post to ${k.lineAccountTypes.join(' or ')} accounts`, field);
    }
    if (account.is_active !== 1) throw new AppError('validation_error', `${field}: account ${account.code} ${account.name} is inactive`, field);
    if (account.control_type !== null || (account.is_system === 1 && account.account_type === 'asset')) {
      throw new AppError('validation_error', `${field}: ${account.code} ${account.name} is a control or system account, which ${k.noun} lines cannot post to`, field);
    }
    return account.id;
  });
}

/** The due date: dueDate, else issueDate + dueDays, else + the contact's terms, else + the organisation's. */
export function dueDateOf(input: { issueDate: string; dueDate?: string | undefined; dueDays?: number | undefined }, terms: number): string {
  if (input.dueDate !== undefined && input.dueDays !== undefined) throw new AppError('validation_error', 'send dueDate or dueDays, not both', 'dueDays');
  const due = input.dueDate ?? addDays(input.issueDate, input.dueDays ?? terms);
  if (due < input.issueDate) throw new AppError('validation_error', `dueDate ${due} is before issueDate ${input.issueDate}`, 'dueDate');
  return due;
}

export interface Computed {
  readonly contact: ContactsTable;
  readonly currency: string;
  readonly issueDate: string;
  readonly dueDate: string;
  readonly priced: Priced;
}

/** Check a document's input against the books and price it, storing nothing (also the preview). */
export async function computeDocument(db: Kysely<OrgDb>, k: Kind, clock: Posting['clock'], input: DocumentInput): Promise<Computed> {
  const org = await loadOrganisation(db);
  const contact = await contactFor(db, k, input.contactId);
  const currency = input.currency ?? org.currency;
  if (currency !== org.currency) {
    throw new AppError('validation_error', `currency: the books are kept in ${org.currency}; ${k.noun}s in ${currency} are not supported`, 'currency');
  }
  const issueDate = input.issueDate ?? today(clock);
  const dueDate = dueDateOf({ issueDate, dueDate: input.dueDate, dueDays: input.dueDays }, contact.payment_terms ?? org.default_payment_terms);
  const accounts = await lineAccounts(db, k, input.items);
  const priced = priceItems(
    input.items.map((item, i) => ({ ...item, accountId: accounts[i] })),
    org.vat_scheme,
  );
  return { contact, currency, issueDate, dueDate, priced };
}

/** The entries of a document: the control account against each line's account and VAT. */
async function ledgerInput(db: Kysely<OrgDb>, k: Kind, id: string, number: string | null, c: Computed, status: 'draft' | 'posted'): Promise<TransactionInput> {
  const control = await accountByCode(db, k.controlCode);
  const registered = (await loadOrganisation(db)).vat_scheme !== 'not_registered';
  const contactId = c.contact.id;
  const lines: LineInput[] = [{ accountId: control.id, amount: -k.lineSign * c.priced.total, contactId, description: c.contact.name }];
  for (const item of c.priced.items) {
    if (item.net === 0) continue;
    lines.push({
      accountId: item.accountId as string,
      amount: k.lineSign * item.net,
      contactId,
      description: item.description.slice(0, 500),
      ...(registered ? { vatRate: item.vatRate, vatTreatment: item.vatRateName === 'exempt' ? 'none' : 'exclusive' } : {}),
    });
  }
  if (c.priced.vatAmount !== 0) {
    const vat = await accountByCode(db, k.vatCode);
    lines.push({ accountId: vat.id, amount: k.lineSign * c.priced.vatAmount, contactId, description: `VAT on ${number ?? id}` });
  }
  const name = number ?? id;
  return {
    date: c.issueDate,
    description: k.kind === 'sales' ? `Invoice ${name} to ${c.contact.name}` : `Bill ${name} from ${c.contact.name}`,
    reference: (number ?? '').slice(0, 100) || null,
    status,
    sourceType: k.sourceType,
    sourceId: id,
    lines,
  };
}

/** Create a draft invoice or bill with its draft ledger entries; its row. */
export async function createDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, input: DocumentInput, extra: { quoteId?: string } = {}): Promise<InvoicesTable> {
  const c = await computeDocument(trx, k, posting.clock, input);
  const id = newId(k.idPrefix, posting.clock.now());
  const number = k.kind === 'sales' ? await allocateNumber(trx, invoiceNumbers) : (input.number ?? null);
  const txn = await createTransaction(trx, posting, await ledgerInput(trx, k, id, number, c, 'draft'));
  const now = timestamp(posting.clock);
  const row: InvoicesTable = {
    id,
    kind: k.kind,
    number,
    status: 'draft',
    contact_id: c.contact.id,
    currency: c.currency,
    issue_date: c.issueDate,
    due_date: c.dueDate,
    paid_date: null,
    notes: input.notes ?? null,
    reference: input.reference ?? null,
    subtotal: c.priced.subtotal,
    vat_amount: c.priced.vatAmount,
    total: c.priced.total,
    amount_paid: 0,
    amount_credited: 0,
    transaction_id: txn.id,
    quote_id: extra.quoteId ?? null,
    sent_at: null,
    voided_at: null,
    created_by: posting.actor.id,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('invoices').values(row).execute();
  await saveItems(trx, posting.clock, id, c.priced.items);
  return row;
}

export type DocumentChange = Partial<DocumentInput>;

/** Change a draft: fields left out stay; items, when sent, replace all lines; the draft entries follow. */
export async function updateDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string, change: DocumentChange): Promise<InvoicesTable> {
  const row = await findDocument(trx, k, id);
  refuseUnlessDraft(k, row, 'changed');
  const items = change.items ?? itemInputsOf((await loadItems(trx, [id])).get(id) ?? []);
  const keepsDueDate = change.dueDate === undefined && change.dueDays === undefined;
  const input: DocumentInput = {
    contactId: change.contactId ?? row.contact_id,
    currency: change.currency ?? row.currency,
    items,
    issueDate: change.issueDate ?? row.issue_date,
    dueDate: keepsDueDate ? row.due_date : change.dueDate,
    dueDays: change.dueDays,
    notes: change.notes === undefined ? row.notes : change.notes,
    reference: change.reference === undefined ? row.reference : change.reference,
    number: change.number === undefined ? row.number : change.number,
  };
  const c = await computeDocument(trx, k, posting.clock, input);
  const number = k.kind === 'sales' ? row.number : (input.number ?? null);
  const entries = await ledgerInput(trx, k, id, number, c, 'draft');
  await replaceDraft(trx, posting, row.transaction_id as string, entries);
  const changes: Partial<InvoicesTable> = {
    number,
    contact_id: c.contact.id,
    currency: c.currency,
    issue_date: c.issueDate,
    due_date: c.dueDate,
    notes: input.notes ?? null,
    reference: input.reference ?? null,
    subtotal: c.priced.subtotal,
    vat_amount: c.priced.vatAmount,
    total: c.priced.total,
    updated_at: timestamp(posting.clock),
  };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  await saveItems(trx, posting.clock, id, c.priced.items);
  return { ...row, ...changes };
}

/** Issue a draft (send an invoice, approve a bill): its entries are posted. */
export async function issueDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string): Promise<InvoicesTable> {
  const row = await findDocument(trx, k, id);
  refuseUnlessDraft(k, row, k.issued);
  await setTransactionStatus(trx, posting, row.transaction_id as string, 'posted');
  const now = timestamp(posting.clock);
  const changes = { status: k.issued, sent_at: now, updated_at: now };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  return { ...row, ...changes };
}

/** Void a document without payments: its entries leave the ledger. */
export async function voidDocument(trx: Kysely<OrgDb>, k: Kind, posting: Posting, id: string): Promise<InvoicesTable> {
  const row = await findDocument(trx, k, id);
  const name = row.number ?? row.id;
  if (row.status === 'void') throw new AppError('already_voided', `${k.noun} ${name} is already void`);
  const payments = await trx.selectFrom('payments').select('id').where('invoice_id', '=', id).limit(1).executeTakeFirst();
  if (payments) {
    throw new AppError('unprocessable_entity', `${k.noun} ${name} has payments recorded and cannot be voided: correct it with a credit note, or remove the payments first`);
  }
  const credit = await trx
    .selectFrom('credit_notes')
    .select('id')
    .where('status', '=', 'issued')
    .where((eb) => eb.or([eb('invoice_id', '=', id), eb('id', 'in', eb.selectFrom('credit_allocations').select('credit_note_id').where('invoice_id', '=', id))]))
    .limit(1)
    .executeTakeFirst();
  if (credit) throw new AppError('unprocessable_entity', `${k.noun} ${name} has credit notes against it or credit allocated to it (${credit.id}) and cannot be voided`);
  if (row.transaction_id) await removeTransaction(trx, row.transaction_id);
  const now = timestamp(posting.clock);
  const changes = { status: 'void' as const, voided_at: now, transaction_id: null, updated_at: now };
  await trx.updateTable('invoices').set(changes).where('id', '=', id).execute();
  return { ...row, ...changes };
}

/** Delete a draft with its lines and draft entries. */
export async function deleteDocument(trx: Kysely<OrgDb>, k: Kind, id: string): Promise<void> {
  const row = await findDocument(trx, k, id);
  refuseUnlessDraft(k, row, 'deleted');
  if (row.transaction_id) await removeTransaction(trx, row.transaction_id);
  await trx.deleteFrom('document_items').where('document_id', '=', id).execute();
  // A quote converted into this draft can be converted again.
  await trx.updateTable('quotes').set({ converted_invoice_id: null, status: 'accepted' }).where('converted_invoice_id', '=', id).execute();
  await trx.deleteFrom('invoices').where('id', '=', id).execute();
}

/**
 * Move issued documents whose due date has passed (before today) to
 * overdue; the rows moved, each once.
 */
export async function markOverdue(trx: Kysely<OrgDb>, k: Kind, posting: Posting, onlyId?: string): Promise<InvoicesTable[]> {
  let q = trx.selectFrom('invoices');
  if (onlyId !== undefined) q = q.where('id', '=', onlyId);
  const rows = await q
    .selectAll()
    .where('kind', '=', k.kind)
    .where('status', '=', k.issued)
    .where('due_date', '<', today(posting.clock))
    .orderBy('due_date')
    .orderBy('id')
    .execute();
  if (rows.length === 0) return [];
  const now = timestamp(posting.clock);
  await trx
    .updateTable('invoices')
    .set({ status: 'overdue', updated_at: now })
    .where('id', 'in', rows.map((r) => r.id))
    .execute();
  return rows.map((r) => ({ ...r, status: 'overdue', updated_at: now }));
}

/** The full view: contact, lines, payments and amounts. */
export async function documentView(db: Kysely<OrgDb>, k: Kind, row: InvoicesTable) {
  const [contact, items, payments, credits] = await Promise.all([
    db.selectFrom('contacts').select(['id', 'name', 'email']).where('id', '=', row.contact_id).executeTakeFirst(),
    loadItems(db, [row.id]),
    db.selectFrom('payments').selectAll().where('invoice_id', '=', row.id).orderBy('date').orderBy('created_at').execute(),
    db
      .selectFrom('credit_allocations')
      .innerJoin('credit_notes', 'credit_notes.id', 'credit_allocations.credit_note_id')
      .select(['credit_allocations.id', 'credit_allocations.credit_note_id', 'credit_notes.number', 'credit_allocations.amount', 'credit_allocations.date'])
      .where('credit_allocations.invoice_id', '=', row.id)
      .orderBy('credit_allocations.date')
      .orderBy('credit_allocations.created_at')
      .execute(),
  ]);
  return {
    ...summaryView(k, row, contact?.name ?? ''),
    contact: { id: row.contact_id, name: contact?.name ?? '', email: contact?.email ?? null },
    items: (items.get(row.id) ?? []).map(itemView),
    payments: payments.map((p) => paymentView(p)),
    credits: credits.map((c) => ({ allocationId: c.id, creditNoteId: c.credit_note_id, creditNoteNumber: c.number, amount: c.amount, date: c.date })),
  };
}

/** The list view: everything but lines and payments. */
export function summaryView(k: Kind, row: InvoicesTable, contactName: string) {
  return {
    id: row.id,
    [k.kind === 'sales' ? 'invoiceNumber' : 'billNumber']: row.number,
    status: row.status,
    contactId: row.contact_id,
    contactName,
    currency: row.currency,
    subtotal: row.subtotal,
    vatAmount: row.vat_amount,
    total: row.total,
    amountPaid: row.amount_paid,
    amountCredited: row.amount_credited,
    amountDue: amountDue(row),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    paidDate: row.paid_date,
    notes: row.notes,
    reference: row.reference,
    [k.kind === 'sales' ? 'sentAt' : 'approvedAt']: row.sent_at,
    voidedAt: row.voided_at,
    quoteId: row.quote_id,
    transactionId: row.transaction_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function paymentView(p: { id: string; invoice_id: string; amount: number; date: string; method: string; reference: string | null; account_id: string; transaction_id: string; created_at: string }) {
  return {
    id: p.id,
    invoiceId: p.invoice_id,
    amount: p.amount,
    date: p.date,
    method: p.method,
    reference: p.reference,
    accountId: p.account_id,
    transactionId: p.transaction_id,
    createdAt: p.created_at,
  };
}

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

/** A page of documents without lines, filtered by status, contact and issue date (both ends inclusive). */
export async function listDocuments(db: Kysely<OrgDb>, k: Kind, input: ListInput) {
  checkRange(input.fromDate, input.toDate);
  let q = db.selectFrom('invoices').innerJoin('contacts', 'contacts.id', 'invoices.contact_id').where('invoices.kind', '=', k.kind);
  if (input.status) q = q.where('invoices.status', '=', input.status);
  if (input.contactId) q = q.where('invoices.contact_id', '=', input.contactId);
  if (input.fromDate) q = q.where('invoices.issue_date', '>=', input.fromDate);
  if (input.toDate) q = q.where('invoices.issue_date', '<=', input.toDate);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll('invoices')
    .select('contacts.name as contact_name')
    .orderBy(sortColumns[input.sort.field] ?? 'invoices.created_at', input.sort.direction)
    .orderBy('invoices.id', input.sort.direction)
    .limit(input.limit)
    .offset(pageOffset(input.page, input.limit))
    .execute();
  return { data: rows.map((r) => summaryView(k, r, r.contact_name)), meta: pageMeta(Number(total), input.page, input.limit) };
}
