/** Time enters the engine only through a Clock, so that trials, sweeps and windows are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at) };
}

const londonDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today's date in the UK (Europe/London), as YYYY-MM-DD: a UK business's "today". */
export function today(clock: Clock): string {
  return londonDate.format(clock.now());
}

/** The current instant as an ISO 8601 UTC timestamp. */
export function timestamp(clock: Clock): string {
  return clock.now().toISOString();
}
