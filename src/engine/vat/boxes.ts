/**
 * The nine boxes of a VAT return from tax-coded entries (pence). Each entry
 * is a sale or a purchase with its net and VAT (negative for a credit).
 *
 * Standard scheme:
 *   box 1 = Σ VAT of sales; box 4 = Σ VAT of purchases (all reclaimed);
 *   box 6 = Σ net of sales; box 7 = Σ net of purchases.
 * Flat rate scheme (VAT Notice 733):
 *   box 6 = Σ (net + VAT) of sales: the VAT-inclusive turnover;
 *   box 1 = flat rate × that turnover, the rate one point lower for turnover
 *   dated before the first anniversary of registration, each part rounded to
 *   the penny (halves away from zero); each rate applied, with its dates,
 *   turnover and share of box 1, is listed (flatRates);
 *   box 4 = Σ VAT and box 7 = Σ net of capital purchases (£2,000 or more
 *   including VAT), the only purchases whose VAT is reclaimed; else 0.
 * Both: box 2 = box 8 = box 9 = 0 (acct records no EU trade since 2021);
 *   box 3 = box 1 + box 2; box 5 = |box 3 − box 4|, payable when box 3 is the
 *   larger, repayable when box 4 is (HMRC shows a repayment as a direction,
 *   never a negative box 5); boxes 6 to 9 are whole pounds, rounded to the
 *   nearest pound (50p up), their exact pence kept alongside.
 *
 * The settlement says how filing clears the VAT: each account holding VAT
 * of the return's entries gives it up (sales' VAT debited, reclaimed
 * purchases' VAT credited), the VAT liability account takes box 3 − box 4,
 * and under the flat rate scheme the VAT charged less box 1 less the
 * reclaimed VAT is the flat-rate surplus (income).
 */
import { addDays, type DateRange } from '../dates.js';
import type { VatEntriesTable, VatReturnsTable } from '../../store/tables.js';

export type BoxEntry = Pick<VatEntriesTable, 'date' | 'direction' | 'net' | 'vat' | 'reclaimable' | 'capital' | 'vat_account_id'>;

/** The nine boxes, as a filed return stores them. */
export type Boxes = Pick<VatReturnsTable, 'box1' | 'box2' | 'box3' | 'box4' | 'box5' | 'box6' | 'box7' | 'box8' | 'box9'>;

export type NetVatDirection = 'payable' | 'repayable' | 'nil';

/** One flat rate a return applied: to the VAT-inclusive turnover dated from `from` to `to`, giving `vat` of box 1 (pence). */
export interface FlatRatePart {
  readonly from: string;
  readonly to: string;
  readonly percent: number;
  readonly turnover: number;
  readonly vat: number;
}

export interface Derived {
  readonly boxes: Boxes;
  /** Boxes 6 to 9 in pence, before rounding to whole pounds. */
  readonly exact: { box6: number; box7: number; box8: number; box9: number };
  readonly direction: NetVatDirection;
  /** Flat rate: VAT charged less flat-rate VAT due (income; negative is a cost); 0 otherwise. */
  readonly flatRateSurplus: number;
  /** Flat rate: each rate applied, oldest first (its vat parts sum to box 1, its turnovers to exact box 6); null otherwise. */
  readonly flatRates: FlatRatePart[] | null;
  /** Per account holding VAT: the amount filing posts to it (positive a debit). */
  readonly settlement: ReadonlyMap<string, number>;
}

export interface Scheme {
  readonly scheme: 'standard' | 'flat_rate';
  /** Basis points (1650 = 16.5%); flat rate only. */
  readonly flatRateBp: number | null;
  /** Turnover dated before this day takes the rate one point lower (the first-year discount). */
  readonly discountUntil: string | null;
}

/** a × bp / 10000 to the nearest penny, halves away from zero. */
export const percentOf = (amount: number, basisPoints: number): number =>
  Math.sign(amount) * Math.floor((2 * Math.abs(amount) * basisPoints + 10_000) / 20_000);

/** Pence to whole pounds (as pence), to the nearest pound, halves away from zero. */
export const wholePounds = (pence: number): number => Math.sign(pence) * Math.floor((Math.abs(pence) + 50) / 100) * 100;

interface Turnover {
  amount: number;
  /** The earliest sale dated at this rate, or null when none is. */
  earliest: string | null;
}

/**
 * The flat rates applied over `span` (a return's period or a report's
 * days): the discounted one for the days before `discountUntil`, the full
 * one from it, each listed when its days meet the span or a sale taken at
 * it is dated in them (a correction dated earlier, carried into this
 * return, stretches its part back to that day).
 */
function flatRateParts(s: Scheme, span: DateRange, discounted: Turnover, full: Turnover): FlatRatePart[] {
  const { startDate: from, endDate: to } = span;
  const rate = s.flatRateBp ?? 0;
  const parts: FlatRatePart[] = [];
  const part = (first: string, last: string, bp: number, t: Turnover) =>
    parts.push({
      from: t.earliest !== null && t.earliest < first ? t.earliest : first,
      to: last,
      percent: bp / 100,
      turnover: t.amount,
      vat: percentOf(t.amount, bp),
    });
  const until = s.discountUntil;
  if (until !== null && (from < until || discounted.earliest !== null)) {
    const last = addDays(until, -1);
    part(from < until ? from : last, to < last ? to : last, Math.max(rate - 100, 0), discounted);
  }
  if (until === null || to >= until || full.earliest !== null) part(until === null || from > until ? from : until, to, rate, full);
  return parts;
}

export function deriveBoxes(entries: readonly BoxEntry[], s: Scheme, span: DateRange): Derived {
  const flat = s.scheme === 'flat_rate';
  let salesVat = 0;
  let salesNet = 0;
  const discounted: Turnover = { amount: 0, earliest: null };
  const full: Turnover = { amount: 0, earliest: null };
  let reclaimedVat = 0;
  let purchasesNet = 0;
  const settlement = new Map<string, number>();
  const move = (account: string, amount: number) => settlement.set(account, (settlement.get(account) ?? 0) + amount);
  for (const e of entries) {
    if (e.direction === 'sale') {
      salesVat += e.vat;
      salesNet += e.net;
      const at = s.discountUntil !== null && e.date < s.discountUntil ? discounted : full;
      at.amount += e.net + e.vat;
      if (at.earliest === null || e.date < at.earliest) at.earliest = e.date;
      // The sale's VAT was credited to its account; filing debits it back.
      move(e.vat_account_id, e.vat);
    } else if (e.reclaimable === 1 && (!flat || e.capital === 1)) {
      reclaimedVat += e.vat;
      purchasesNet += e.net;
      move(e.vat_account_id, -e.vat);
    }
  }
  const flatRates = flat ? flatRateParts(s, span, discounted, full) : null;
  const box1 = flatRates ? flatRates.reduce((sum, p) => sum + p.vat, 0) : salesVat;
  const box4 = reclaimedVat;
  const box3 = box1;
  const exact = { box6: flat ? discounted.amount + full.amount : salesNet, box7: purchasesNet, box8: 0, box9: 0 };
  const flatRateSurplus = flat ? salesVat - box1 : 0;
  for (const [account, amount] of [...settlement]) if (amount === 0) settlement.delete(account);
  return {
    boxes: {
      box1,
      box2: 0,
      box3,
      box4,
      box5: Math.abs(box3 - box4),
      box6: wholePounds(exact.box6),
      box7: wholePounds(exact.box7),
      box8: 0,
      box9: 0,
    },
    exact,
    direction: box3 > box4 ? 'payable' : box3 < box4 ? 'repayable' : 'nil',
    flatRateSurplus,
    flatRates,
    settlement,
  };
}
