/**
 * How sure a decision is, from 0 to 1, for `acct bank accept --min-confidence`:
 * the mean of operator specificity (out of equals' 5) and value fit (out of
 * 100), times a provenance weight (local 1, verified 0.9, global 0.8),
 * rounded half up to two places. A local `equals` is 1; a local
 * `contains "TESCO"` on "TESCO STORES" (fit 41) is (3/5 + 41/100) / 2 =
 * 0.505 → 0.51.
 */
import { operatorScore, type ScoreVector } from './score.js';

/** Per cent, keyed by the provenance score (local 3, verified 2, global 1). */
const provenanceWeight: Readonly<Record<number, number>> = { 3: 100, 2: 90, 1: 80 };

export function confidence(vector: ScoreVector): number {
  const [provenance = 0, operator = 0, , , fit = 0] = vector;
  const weight = provenanceWeight[provenance] ?? 0;
  // In ten-thousandths, rounded once to shed binary fractions (2.4 × 20 is not exactly 48) before rounding to hundredths.
  const tenThousandths = Math.round((weight * ((operator * 100) / operatorScore.equals + fit)) / 2);
  return Math.round(tenThousandths / 100) / 100;
}
