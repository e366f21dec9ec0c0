/**
 * The VAT facts of posted lines (tax-coded entries), written by posting
 * beside the lines they describe. An entry says what a VAT return needs:
 * a sale or a purchase, its net and its VAT (positive for a supply, negative
 * for a refund or credit), its rate, whether the VAT is reclaimed, and on
 * which account the VAT sits. Returns read entries only; a movement on a
 * VAT account without an entry (paying HMRC, a transfer) never reaches a box.
 *
 * A manual line gets an entry from its vatRate and vatTreatment
 * (inclusive or exclusive; none and no rate give none):
 * - a revenue line is a sale; an expense or asset line a purchase (a credit
 *   sale and a debit purchase are positive); other account types, and
 *   control accounts (the bank, receivables, payables, VAT), refuse it;
 * - inclusive: the VAT is inside the line, so the VAT sits on the line's own
 *   account; exclusive: the line is the net and the VAT sits on the VAT
 *   account (2200 for sales, 2201 for purchases), where the caller posted it;
 * - the VAT is the line's vatAmount (rate × amount, or the caller's rounding
 *   of it, as acct post's inclusive shorthand states it);
 * - a purchase's VAT is reclaimed (box 4) under the standard scheme, and
 *   under the flat rate scheme only for a capital purchase (an asset line of
 *   £2,000 or more including VAT);
 * - a business not registered for VAT records no entries.
 * Invoices, bills, credit notes and (on the cash basis) payments pass their
 * entries explicitly.
 */
import { AppError } from '../errors.js';
import { lineVat, type VatTreatment } from './line-vat.js';
import { sterling } from '../money.js';
import { schemeInForce } from '../organisation/organisation.js';
import type { AccountsTable, OrganisationTable, VatEntriesTable } from '../../store/tables.js';

/** An entry as a caller states it; posting checks it and gives it its ids and date. */
export interface VatEntryInput {
  /** The index of the line it describes in the transaction's lines, if one. */
  readonly lineIndex?: number;
  readonly documentId?: string | null;
  readonly direction: VatEntriesTable['direction'];
  readonly basis: VatEntriesTable['basis'];
  readonly rate: number | null;
  readonly net: number;
  readonly vat: number;
  readonly reclaimable: boolean;
  readonly capital?: boolean;
  readonly vatAccountId: string;
}

/** £2,000 including VAT: a flat-rate capital purchase at or above it reclaims its VAT (VAT Notice 733 §9). */
export const capitalPurchaseThreshold = 200_000;

type Scheme = OrganisationTable['vat_scheme'];

/** What entries need of the books: the scheme, the registration date and the VAT accounts by code. */
export interface VatBooks {
  /** The latest scheme, the organisation's. */
  readonly scheme: Scheme;
  /** The changes of scheme (vat_schemes), latest first: each in force from its day; empty when one scheme has held throughout. */
  readonly schemes: readonly { readonly from: string; readonly scheme: Scheme }[];
  readonly registrationDate: string | null;
  readonly vatAccountIds: { readonly output: string | undefined; readonly input: string | undefined };
}

/** The scheme in force on `date`. */
export function schemeAt(books: VatBooks, date: string): Scheme {
  return schemeInForce(books.scheme, books.schemes, date);
}

/** Whether an entry charges output VAT: a sale's own VAT (an invoice's, a credit note's, a manual line's), not a payment's cash-basis share of it. */
export const chargesOutputVat = (e: Pick<VatEntryInput, 'direction' | 'basis' | 'vat'>): boolean => e.direction === 'sale' && e.basis !== 'cash' && e.vat !== 0;

/**
 * Refuse (422) a sale dated before the VAT registration date that charges
 * VAT: a business cannot charge VAT before it is registered, and no return
 * would take it (its VAT would stay on 2200). The field is the line's
 * vatRate when the entry describes a manual line, else the date.
 */
export function refuseVatBeforeRegistration(books: VatBooks, date: string, entries: readonly VatEntryInput[]): void {
  const since = books.registrationDate;
  if (since === null || date >= since || schemeAt(books, date) === 'not_registered') return;
  const e = entries.find(chargesOutputVat);
  if (e === undefined) return;
  const field = e.lineIndex === undefined ? 'date' : `lines[${e.lineIndex}].vatRate`;
  throw new AppError(
    'unprocessable_entity',
    `${e.lineIndex === undefined ? '' : `${field}: `}a sale dated ${date} charges VAT (${sterling(Math.abs(e.vat))}), but the organisation registered for VAT on ${since}: ` +
      'a business cannot charge VAT before it is registered; date the sale from then, or record it without VAT',
    field,
  );
}

/** The entry a manual line's VAT metadata makes, or null. */
export function entryOfLine(
  books: VatBooks,
  date: string,
  account: AccountsTable,
  line: { readonly amount: number; readonly vatRate?: number | null; readonly vatTreatment?: VatTreatment | null; readonly vatAmount?: number | null },
  index: number,
): VatEntryInput | null {
  const rate = line.vatRate ?? null;
  const treatment = line.vatTreatment ?? null;
  const scheme = schemeAt(books, date);
  if (scheme === 'not_registered' || rate === null || treatment === null || treatment === 'none') return null;
  const field = `lines[${index}].vatRate`;
  const direction = account.account_type === 'revenue' ? 'sale' : account.account_type === 'expense' || account.account_type === 'asset' ? 'purchase' : null;
  if (direction === null || account.is_control_account === 1) {
    throw new AppError(
      'validation_error',
      `${field}: VAT facts belong on a sale (a revenue account) or a purchase (an expense or asset account), not on ${account.is_control_account === 1 ? 'control' : account.account_type} account ${account.code}`,
      field,
    );
  }
  const vat = line.vatAmount ?? lineVat(line.amount, rate, treatment) ?? 0;
  const gross = Math.abs(line.amount);
  const net = treatment === 'inclusive' ? gross - vat : gross;
  // A credit to revenue is a sale and a debit to an expense a purchase; the other way round they are refunds.
  const sign = (direction === 'sale' ? -1 : 1) * Math.sign(line.amount);
  const capital = direction === 'purchase' && account.account_type === 'asset' && net + vat >= capitalPurchaseThreshold;
  const vatAccountId = treatment === 'inclusive' ? account.id : direction === 'sale' ? books.vatAccountIds.output : books.vatAccountIds.input;
  if (vatAccountId === undefined)
    throw new AppError('unprocessable_entity', `the chart has no VAT ${direction === 'sale' ? 'output (2200)' : 'input (2201)'} account`);
  return {
    lineIndex: index,
    direction,
    basis: 'both',
    rate,
    net: sign * net,
    vat: sign * vat,
    reclaimable: direction === 'sale' || scheme === 'standard' || capital,
    capital,
    vatAccountId,
  };
}
