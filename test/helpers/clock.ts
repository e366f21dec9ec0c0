/** The tests' clocks: the engine's fixed and system clocks, and one that stands still until the test moves it. */
import type { Clock } from '../../src/engine/clock.js';

export { fixedClock, systemClock, type Clock } from '../../src/engine/clock.js';

/** A clock the test moves by hand: deterministic, yet timestamps can still be ordered. */
export interface MovingClock extends Clock {
  advance(ms: number): void;
}

export function movingClock(iso: string): MovingClock {
  let at = Date.parse(iso);
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
  };
}
