/**
 * A table narrowed to the terminal: columns of little use left out first
 * (audit times, ids of other records), then long text cut short with …,
 * then the other columns, the rightmost first; the essential ones (an id,
 * a number, a name, amounts) stay. Piped output and --wide are not cut.
 */
import { createRequire } from 'node:module';

let widthOf: ((text: string) => number) | undefined;

/** How wide text shows on a terminal (colour codes none, wide characters two). */
export function textWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  widthOf ??= createRequire(import.meta.url)('string-width') as (text: string) => number;
  return widthOf(text);
}

/** Never left out. */
export const essential = Number.POSITIVE_INFINITY;

/** How a column may give way: the lower `keep`, the sooner it is left out; `shrink` if its text may be cut short. */
export interface ColumnPlan {
  readonly keep: number;
  readonly shrink: boolean;
}

/** Long text is cut to this before any column worth `keptOverLongText` or more is left out. */
const longText = 30;
const keptOverLongText = 3;
/** Text is cut to this before the other columns are left out, and to the shortest after. */
const shortText = 16;
const shortest = 8;

export interface Fit {
  /** The columns shown, in order. */
  readonly shown: readonly number[];
  /** The columns left out, in order. */
  readonly hidden: readonly number[];
  /** The width each shown column is cut to, when narrower than its text. */
  readonly cut: ReadonlyMap<number, number>;
}

/**
 * Which columns to show within `limit` (a line of the table is its columns
 * with two spaces between); `natural` is each column's widest cell, header included.
 * Without a limit everything is shown. A table that cannot fit even so is
 * shown as narrow as it goes.
 */
export function fitColumns(natural: readonly number[], plans: readonly ColumnPlan[], limit: number | undefined): Fit {
  const all = natural.map((_, i) => i);
  if (limit === undefined) return { shown: all, hidden: [], cut: new Map() };
  const width = [...natural];
  let shown = all;
  const total = (): number => shown.reduce((s, i) => s + (width[i] ?? 0) + 2, -2);
  const leaveOut = (below: number): void => {
    while (total() > limit) {
      const candidates = shown.filter((i) => (plans[i]?.keep ?? essential) < below);
      if (candidates.length === 0) return;
      // The least useful, and of equals the rightmost.
      const out = candidates.reduce((a, b) => ((plans[b]?.keep ?? essential) <= (plans[a]?.keep ?? essential) ? b : a));
      shown = shown.filter((i) => i !== out);
    }
  };
  // Essential text (a name) is cut only once nothing else can give way.
  const shrinks = (i: number, all: boolean): boolean => plans[i]?.shrink === true && (all || (plans[i]?.keep ?? essential) < essential);
  const shrinkTo = (floor: number, all: boolean): void => {
    while (total() > limit) {
      const widest = shown.filter((i) => shrinks(i, all) && (width[i] ?? 0) > floor).sort((a, b) => (width[b] ?? 0) - (width[a] ?? 0))[0];
      if (widest === undefined) return;
      width[widest] = Math.max(floor, (width[widest] ?? 0) - (total() - limit));
    }
  };
  leaveOut(keptOverLongText);
  if (total() > limit) for (const i of shown) if (shrinks(i, false)) width[i] = Math.min(width[i] ?? 0, longText);
  shrinkTo(shortText, false);
  leaveOut(essential);
  shrinkTo(shortest, true);
  const cut = new Map(shown.flatMap((i) => ((width[i] ?? 0) < (natural[i] ?? 0) ? [[i, width[i] ?? 0] as const] : [])));
  return { shown, hidden: all.filter((i) => !shown.includes(i)), cut };
}

/** Text cut to `width` columns, its end replaced by … (after a word, not a blank); colour codes are dropped from text that is cut. */
export function truncate(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  let out = '';
  let used = 0;
  for (const ch of plain) {
    const w = textWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out.trimEnd()}…`;
}

/** Ids, dates, times and figures are no use cut short. */
const whole = /^([a-z]+_[0-9a-z]{20,}|\d{4}-\d\d-\d\d\S*|[-+]?[\d.,]+( (Dr|Cr))?|)$/;

/** Whether a column's cells are text that may be cut short (not ids, dates or figures). */
export const shrinkable = (cells: readonly string[]): boolean => cells.some((c) => !whole.test(c.trim()));

/**
 * The width a table printed for a person may take: on a terminal, $COLUMNS
 * when it is set (POSIX: the user's preferred width), else the terminal's,
 * else 80; none into a pipe or a file, nor with --wide.
 */
export function tableWidth(
  wide: boolean | undefined,
  out: { readonly isTTY?: boolean; readonly columns?: number } = process.stdout,
  env = process.env,
): number | undefined {
  if (wide === true || out.isTTY !== true) return undefined;
  const preferred = Number(env['COLUMNS']);
  if (Number.isInteger(preferred) && preferred > 0) return preferred;
  return out.columns !== undefined && out.columns > 0 ? out.columns : 80;
}

/** The dim line under a narrowed table: what was left out, and how to see it. */
export function hiddenNote(names: readonly string[], limit: number | undefined): string {
  if (names.length === 0) return '';
  const note = `${names.length} column${names.length === 1 ? '' : 's'} left out, --wide shows ${names.length === 1 ? 'it' : 'them'}: ${names.join(', ')}`;
  return limit === undefined ? note : truncate(note, limit);
}
