/**
 * A document's gross, paid and outstanding amounts from whichever of the
 * total, paid and due cells its export gives: paid = total − due when only
 * the amount due is given, due = total − paid when only the amount paid is,
 * nothing paid when neither is; when both are, they must add up.
 */
import { sterling } from '../../money.js';
import { parseAmountText } from '../../tabular/amount-text.js';
import { creditNotesNotImported } from './document-kind.js';

/** The trimmed cells; null when the file has no such column, '' when the cell is empty. */
export interface AmountCells {
  readonly total: string | null;
  readonly paid: string | null;
  readonly due: string | null;
}

export type AmountField = 'total' | 'paid' | 'due';

export type AmountReading =
  | { readonly kind: 'owed'; readonly gross: number; readonly paid: number; readonly outstanding: number }
  | { readonly kind: 'settled'; readonly field: AmountField; readonly reason: string }
  | { readonly kind: 'bad'; readonly field: AmountField; readonly reason: string };

const bad = (field: AmountField, reason: string): AmountReading => ({ kind: 'bad', field, reason });

const names: Readonly<Record<AmountField, string>> = { total: 'total', paid: 'amount paid', due: 'amount due' };

/** Pence of a given cell, null for an empty or absent one, or the reading that refuses it. */
function amountOf(field: AmountField, cell: string | null): number | null | AmountReading {
  if (cell === null || cell === '') return null;
  const pence = parseAmountText(cell);
  return pence === null ? bad(field, `the ${names[field]} ${cell} is not an amount`) : pence;
}

const isReading = (v: number | null | AmountReading): v is AmountReading => typeof v === 'object' && v !== null;

export function readAmounts(cells: AmountCells, noun: string): AmountReading {
  const total = amountOf('total', cells.total);
  if (isReading(total)) return total;
  const paid = amountOf('paid', cells.paid);
  if (isReading(paid)) return paid;
  const due = amountOf('due', cells.due);
  if (isReading(due)) return due;
  // No total column at all (an aged list of balances): the amount due is the whole document.
  const grossField: AmountField = cells.total === null ? 'due' : 'total';
  const gross = cells.total === null ? due : total;
  if (gross === null) return bad(grossField, `no ${names[grossField]}`);
  if (gross < 0) {
    return bad(grossField, `a credit note (${names[grossField]} ${sterling(gross)}): ${creditNotesNotImported}`);
  }
  if (gross === 0) return { kind: 'settled', field: grossField, reason: `nothing outstanding: the ${noun}'s total is £0.00` };
  const settled = paidOf(gross, cells.total === null ? null : paid, cells.total === null ? null : due, noun);
  if (typeof settled !== 'number') return settled;
  const outstanding = gross - settled;
  if (outstanding === 0)
    return { kind: 'settled', field: cells.due === null ? 'paid' : 'due', reason: `nothing outstanding: the ${noun} is paid in full (${sterling(gross)})` };
  return { kind: 'owed', gross, paid: settled, outstanding };
}

/** The amount paid of a document of `gross` (> 0) from the paid and due amounts given, or the reading that refuses them. */
function paidOf(gross: number, paid: number | null, due: number | null, noun: string): number | AmountReading {
  if (paid !== null && paid < 0) return bad('paid', `the amount paid ${sterling(paid)} is negative`);
  if (paid !== null && paid > gross) return bad('paid', `the amount paid ${sterling(paid)} is more than the total ${sterling(gross)}`);
  if (due !== null && due < 0) return bad('due', `the amount due ${sterling(due)} is negative: the ${noun} is overpaid`);
  if (due !== null && due > gross) return bad('due', `the amount due ${sterling(due)} is more than the total ${sterling(gross)}`);
  if (paid !== null && due !== null && paid + due !== gross) {
    return bad('paid', `the amount paid ${sterling(paid)} and the amount due ${sterling(due)} do not add up to the total ${sterling(gross)}`);
  }
  if (paid !== null) return paid;
  return due === null ? 0 : gross - due;
}
