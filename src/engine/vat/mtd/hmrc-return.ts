/**
 * A filed return (pence) as HMRC's nine boxes (pounds), and HMRC's pounds
 * back as pence. Boxes 1 to 5 go with their pence (two decimals); boxes 6
 * to 9 in whole pounds, as HMRC's schema takes them (filing already keeps
 * them as whole pounds; any pence left would be dropped, as the form does).
 * netVatDue is box 5, which a filed return holds as a size (never
 * negative) beside its direction, as HMRC wants it: HMRC reads payable or
 * repayable from boxes 3 and 4.
 */
import type { Boxes } from '../boxes.js';
import type { ReturnDeclaration } from './vat-api.js';

/** Pence as pounds with two decimals (12345 → 123.45; JSON prints the shortest form, 123.45). */
const pounds = (pence: number): number => pence / 100;
/** Pence as whole pounds, pence dropped toward zero. */
const wholePounds = (pence: number): number => Math.trunc(pence / 100);

export function declarationOf(row: Boxes, periodKey: string): ReturnDeclaration {
  return {
    periodKey,
    vatDueSales: pounds(row.box1),
    vatDueAcquisitions: pounds(row.box2),
    totalVatDue: pounds(row.box3),
    vatReclaimedCurrPeriod: pounds(row.box4),
    netVatDue: pounds(row.box5),
    totalValueSalesExVAT: wholePounds(row.box6),
    totalValuePurchasesExVAT: wholePounds(row.box7),
    totalValueGoodsSuppliedExVAT: wholePounds(row.box8),
    totalAcquisitionsExVAT: wholePounds(row.box9),
    finalised: true,
  };
}

/** HMRC's pounds (at most two decimals) as pence. */
export const penceOf = (pounds: number): number => Math.round(pounds * 100);
