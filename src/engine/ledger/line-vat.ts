/**
 * VAT on a ledger line, for tax reporting only: it adds no lines and does
 * not change the balance. Each line is rounded to the nearest penny, a
 * half penny up (HMRC accepts rounding each line to the nearest penny).
 */
export const vatTreatments = ['none', 'inclusive', 'exclusive'] as const;
export type VatTreatment = (typeof vatTreatments)[number];

/** numerator / denominator rounded to the nearest integer, halves up; both non-negative. */
function divideRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * The VAT in a line of `amount` pence at `rate` percent:
 * inclusive: |amount| − |amount| / (1 + rate), that is |amount| × rate / (100 + rate);
 * exclusive: |amount| × rate / 100; none: no VAT (null).
 */
export function lineVat(amount: number, rate: number, treatment: VatTreatment): number | null {
  const gross = Math.abs(amount);
  switch (treatment) {
    case 'inclusive':
      return divideRoundHalfUp(gross * rate, 100 + rate);
    case 'exclusive':
      return divideRoundHalfUp(gross * rate, 100);
    case 'none':
      return null;
  }
}
