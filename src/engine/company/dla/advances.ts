/**
 * Advances still owed, each with the reliefs (repayments, set-offs,
 * write-offs) applied to it and their dates, so that S455 can tell which
 * came before the deadline. Repayments go to the oldest advance first.
 */

export interface Relief {
  readonly date: string;
  readonly pence: number;
}

export interface Advance {
  readonly person: string;
  readonly date: string;
  readonly amountPence: number;
  remainingPence: number;
  readonly reliefs: Relief[];
}

export function newAdvance(person: string, date: string, amountPence: number): Advance {
  return { person, date, amountPence, remainingPence: amountPence, reliefs: [] };
}

/** Apply `pence` dated `date` to `advances` in their order; returns what found nothing left to repay. */
export function relieve(advances: readonly Advance[], pence: number, date: string): number {
  let left = pence;
  for (const a of advances) {
    if (left === 0) break;
    const applied = Math.min(left, a.remainingPence);
    if (applied === 0) continue;
    a.remainingPence -= applied;
    a.reliefs.push({ date, pence: applied });
    left -= applied;
  }
  return left;
}

/** What was repaid of an advance on days before `date`. */
export const relievedBefore = (a: Advance, date: string): number => a.reliefs.reduce((sum, r) => (r.date < date ? sum + r.pence : sum), 0);

export const outstanding = (advances: readonly Advance[]): number => advances.reduce((sum, a) => sum + a.remainingPence, 0);
