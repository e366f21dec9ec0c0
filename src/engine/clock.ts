/** Time enters the engine only through a Clock, so that trials, sweeps and windows are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at) };
}

/** The instant (ms) UK summer time begins or ends in a year: 01:00 UTC on the last Sunday of the month (March or October, 0-based 2 or 9). */
function lastSundayOneAm(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

// Made only for an instant outside the years of today's rule: a formatter with a time zone loads ICU's zone data,
// some milliseconds of a short command's start-up, and most commands read today's date.
let londonFormat: Intl.DateTimeFormat | undefined;

/**
 * The date in the UK (Europe/London) at an instant, as YYYY-MM-DD.
 * From 1996 to 2037 by the rule in force (summer time from 01:00 UTC on the last
 * Sunday of March to 01:00 UTC on the last Sunday of October), else by ICU's zone data.
 */
export function londonDateAt(at: Date): string {
  const year = at.getUTCFullYear();
  if (year >= 1996 && year <= 2037) {
    const ms = at.getTime();
    const summer = ms >= lastSundayOneAm(year, 2) && ms < lastSundayOneAm(year, 9);
    return new Date(summer ? ms + 3_600_000 : ms).toISOString().slice(0, 10);
  }
  londonFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
  return londonFormat.format(at);
}

/** Today's date in the UK (Europe/London), as YYYY-MM-DD: a UK business's "today". */
export function today(clock: Clock): string {
  return londonDateAt(clock.now());
}

/** The current instant as an ISO 8601 UTC timestamp. */
export function timestamp(clock: Clock): string {
  return clock.now().toISOString();
}
