/**
 * Which lines a credit note credits, and for how much. Each line of an
 * invoice (or bill) can be credited up to what earlier credit notes left
 * of it; a credit note takes, per line, a net amount and its VAT:
 * - the whole document: every line's remainder;
 * - chosen lines: those lines' remainders, no more than is left of the
 *   whole document (a line can be worth more than a document that also has
 *   a negative line, such as a discount);
 * - an amount (VAT included): shared over the lines in proportion to
 *   their remainders, whole pennies by largest remainder (among equal
 *   fractions, the line that comes first), and each share
 *   split into net and VAT in the line's own proportion (net rounded to
 *   the nearest penny, halves away from zero; VAT is the rest), so a
 *   credit at one rate is exactly the VAT fraction of the amount.
 * Credit notes that credit whole lines carry the line's quantity and unit
 * price; the others carry quantity 1 at the net amount.
 */
import { AppError } from '../errors.js';
import { sterling } from '../money.js';
import type { PricedItem } from './items.js';
import type { DocumentItemsTable } from '../../store/tables.js';

/** An invoice line and what earlier credit notes have taken of it. */
export interface Creditable {
  readonly item: DocumentItemsTable;
  readonly creditedNet: number;
  readonly creditedVat: number;
}

export type CreditChoice =
  { readonly mode: 'whole' } | { readonly mode: 'lines'; readonly lineIds: readonly string[] } | { readonly mode: 'amount'; readonly amount: number };

const remainder = (c: Creditable) => ({ net: c.item.net - c.creditedNet, vat: c.item.vat_amount - c.creditedVat });

/** numerator / denominator to the nearest integer, halves away from zero (denominator ≠ 0). */
export function divideRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/** Floor division for bigints of any sign. */
function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n !== denominator < 0n ? q - 1n : q;
}

/** A credit note line crediting `net` and `vat` of an invoice line; quantity 1 at the net amount unless given. */
function creditLine(c: Creditable, net: number, vat: number, quantity = 1, unitPrice = net): PricedItem {
  return {
    description: c.item.description,
    quantity,
    unitPrice,
    vatRateName: c.item.vat_rate_name,
    vatRate: c.item.vat_rate,
    net,
    vatAmount: vat,
    lineTotal: net + vat,
    accountId: c.item.account_id,
    sourceItemId: c.item.id,
  };
}

/** A whole line's remainder as a credit note line: as invoiced when nothing of it was credited before. */
function wholeLine(c: Creditable): PricedItem {
  const { net, vat } = remainder(c);
  const untouched = c.creditedNet === 0 && c.creditedVat === 0;
  return untouched ? creditLine(c, net, vat, c.item.quantity, c.item.unit_price) : creditLine(c, net, vat);
}

/** `amount` shared over the lines' remainders (totals summing to more than zero). */
function apportion(lines: readonly Creditable[], amount: number): PricedItem[] {
  const totals = lines.map((c) => {
    const r = remainder(c);
    return BigInt(r.net + r.vat);
  });
  const whole = totals.reduce((s, x) => s + x, 0n);
  const exact = totals.map((t) => BigInt(amount) * t);
  const shares = exact.map((x) => floorDiv(x, whole));
  let left = BigInt(amount) - shares.reduce((s, x) => s + x, 0n);
  // The pennies floor left over go to the lines with the largest fractions, the first line first among equals.
  const order = exact
    .map((x, i) => ({ i, fraction: x - shares[i]! * whole }))
    .sort((a, b) => (b.fraction > a.fraction ? 1 : b.fraction < a.fraction ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  const out: PricedItem[] = [];
  lines.forEach((c, i) => {
    const share = shares[i]!;
    if (share === 0n) return;
    const r = remainder(c);
    const net = Number(divideRound(share * BigInt(r.net), totals[i]!));
    out.push(creditLine(c, net, Number(share) - net));
  });
  return out;
}

/** The credit note's lines for a choice; refuses lines not on the document, or more than is left to credit. */
export function creditLines(lines: readonly Creditable[], choice: CreditChoice, noun: string): PricedItem[] {
  const open = lines.filter((c) => {
    const r = remainder(c);
    return r.net !== 0 || r.vat !== 0;
  });
  const left = open.reduce((s, c) => s + remainder(c).net + remainder(c).vat, 0);
  if (left <= 0) throw new AppError('unprocessable_entity', `the ${noun} has been credited in full already`);
  switch (choice.mode) {
    case 'whole':
      return open.map(wholeLine);
    case 'lines': {
      const chosen = choice.lineIds.map((id, i) => {
        const line = lines.find((c) => c.item.id === id);
        if (!line) throw new AppError('validation_error', `lineIds[${i}]: ${id} is not a line of this ${noun}`, `lineIds[${i}]`);
        if (choice.lineIds.indexOf(id) !== i) throw new AppError('validation_error', `lineIds[${i}]: ${id} is named twice`, `lineIds[${i}]`);
        if (!open.includes(line)) throw new AppError('unprocessable_entity', `line ${id} (${line.item.description}) has been credited in full already`);
        return wholeLine(line);
      });
      const total = chosen.reduce((s, p) => s + p.lineTotal, 0);
      if (total <= 0) {
        throw new AppError('validation_error', 'the chosen lines come to nothing or less: a credit note must credit more than zero', 'lineIds');
      }
      // A line can be worth more than the whole document when another line is negative (a discount).
      if (total > left) {
        throw new AppError(
          'unprocessable_entity',
          `lineIds: a credit of ${sterling(total)} is more than the ${sterling(left)} of the ${noun} left to credit`,
          'lineIds',
        );
      }
      return chosen;
    }
    case 'amount':
      if (choice.amount > left) {
        throw new AppError('unprocessable_entity', `a credit of ${sterling(choice.amount)} is more than the ${sterling(left)} of the ${noun} left to credit`);
      }
      return apportion(open, choice.amount);
  }
}
