/**
 * A document's input checked against the books and priced: its contact,
 * currency, dates and each line's account, before anything is stored
 * (also what a preview shows).
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { today } from '../clock.js';
import { addDays, lastYear } from '../dates.js';
import { loadOrganisation, schemeOn } from '../organisation/organisation.js';
import type { Posting } from '../ledger/posting.js';
import { findContact } from './contacts.js';
import { priceItems, type ItemInput, type Priced } from './items.js';
import { accountByCode, type Kind } from './documents.js';
import type { ContactsTable, OrganisationTable, OrgDb } from '../../store/tables.js';

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
    throw new AppError(
      'validation_error',
      `contactId: ${contact.name} is a ${contact.contact_type}; a${k.noun === 'invoice' ? 'n invoice' : ' bill'} needs a ${k.contactTypes[0]} (or both)`,
      'contactId',
    );
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
      throw new AppError(
        'validation_error',
        `${field}: ${account.code} ${account.name} is ${account.account_type}; ${k.noun} lines post to ${k.lineAccountTypes.join(' or ')} accounts`,
        field,
      );
    }
    if (account.is_active !== 1) throw new AppError('validation_error', `${field}: account ${account.code} ${account.name} is inactive`, field);
    if (account.control_type !== null || (account.is_system === 1 && account.account_type === 'asset')) {
      throw new AppError(
        'validation_error',
        `${field}: ${account.code} ${account.name} is a control or system account, which ${k.noun} lines cannot post to`,
        field,
      );
    }
    return account.id;
  });
}

/** The due date: dueDate, else issueDate + dueDays, else + the contact's terms, else + the organisation's. */
export function dueDateOf(input: { issueDate: string; dueDate?: string | undefined; dueDays?: number | undefined }, terms: number): string {
  if (input.dueDate !== undefined && input.dueDays !== undefined) throw new AppError('validation_error', 'send dueDate or dueDays, not both', 'dueDays');
  const due = input.dueDate ?? addDays(input.issueDate, input.dueDays ?? terms);
  if (due < input.issueDate) throw new AppError('validation_error', `dueDate ${due} is before issueDate ${input.issueDate}`, 'dueDate');
  // A due date counted from the issue date may run past the last year the books keep, which a dueDate sent so would not.
  if (due > `${lastYear}-12-31`) {
    const field = input.dueDays !== undefined ? 'dueDays' : 'issueDate';
    throw new AppError('validation_error', `the due date would be ${due}, past ${lastYear}-12-31, the last date the books keep`, field);
  }
  return due;
}

export interface Computed {
  readonly contact: ContactsTable;
  readonly currency: string;
  readonly issueDate: string;
  readonly dueDate: string;
  readonly priced: Priced;
}

/** A document's currency: the books' own, given or not; any other is 400 on currency (acct keeps single-currency books). */
export function documentCurrency(org: Pick<OrganisationTable, 'currency'>, given: string | undefined, noun: string): string {
  const currency = given ?? org.currency;
  if (currency !== org.currency) {
    throw new AppError('validation_error', `currency: the books are kept in ${org.currency}; ${noun}s in ${currency} are not supported`, 'currency');
  }
  return currency;
}

/** Check a document's input against the books and price it, storing nothing (also the preview). */
export async function computeDocument(db: Kysely<OrgDb>, k: Kind, clock: Posting['clock'], input: DocumentInput): Promise<Computed> {
  const org = await loadOrganisation(db);
  const contact = await contactFor(db, k, input.contactId);
  const currency = documentCurrency(org, input.currency, k.noun);
  const issueDate = input.issueDate ?? today(clock);
  const dueDate = dueDateOf({ issueDate, dueDate: input.dueDate, dueDays: input.dueDays }, contact.payment_terms ?? org.default_payment_terms);
  const accounts = await lineAccounts(db, k, input.items);
  // A supplier charges VAT at its rates whatever our scheme; what our books do with it is document-entries.ts's concern.
  const priced = priceItems(
    input.items.map((item, i) => ({ ...item, accountId: accounts[i] })),
    k.kind === 'purchase' ? 'standard' : (await schemeOn(db, org, issueDate)).vat_scheme,
  );
  return { contact, currency, issueDate, dueDate, priced };
}
