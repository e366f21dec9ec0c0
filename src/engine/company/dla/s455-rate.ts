/**
 * The S455 rate in force on the day a loan was made (gap-facts §10.1): it
 * follows the dividend upper rate (CTA 2010 s455(2) as amended by FA 2016
 * s50), so 25% for loans made before 6 April 2016, 32.5% from then, 33.75%
 * from 6 April 2022 and 35.75% from 6 April 2026 (Budget of November 2025).
 * Rates are basis points inside (3375 is 33.75%) so that no tax is worked
 * out in floating point.
 */

const bands: readonly { readonly from: string; readonly basisPoints: number }[] = [
  { from: '2026-04-06', basisPoints: 3575 },
  { from: '2022-04-06', basisPoints: 3375 },
  { from: '2016-04-06', basisPoints: 3250 },
];

/** Basis points of the S455 rate for a loan made on `date` (YYYY-MM-DD). */
export function s455RateOn(date: string): number {
  return bands.find((b) => date >= b.from)?.basisPoints ?? 2500;
}

/** 3375 → 33.75: the rate as the API shows it, a percentage. */
export const percent = (basisPoints: number): number => basisPoints / 100;

/** `pence` × `basisPoints` / 10,000 rounded down to the penny, in integers (tax is rounded down, as HMRC does). */
export function taxAt(pence: number, basisPoints: number): number {
  const hundredths = pence * basisPoints;
  if (!Number.isSafeInteger(hundredths)) return Number((BigInt(pence) * BigInt(basisPoints)) / 10_000n);
  return (hundredths - (hundredths % 10_000)) / 10_000;
}
