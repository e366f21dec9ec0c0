/**
 * acct's commander classes: an option that knows the values it takes (for
 * shell completion) and the older names it still answers to (hidden from
 * help), and a command whose "Did you mean" also knows those older names.
 */
import { Command, Help, Option, type AddHelpTextContext, type AddHelpTextPosition } from 'commander';
import { editDistance } from '../engine/edit-distance.js';
import { tableWidth } from './fit-table.js';

/**
 * One name for each idea across the commands: an API field on the left is
 * the flag on the right (--as-of everywhere, not --as-of-date in some
 * reports); the field's own kebab name still works, hidden.
 */
export const flagNames: Readonly<Record<string, string>> = {
  asOfDate: 'as-of',
  fromDate: 'from',
  toDate: 'to',
};

export class AcctOption extends Option {
  /** The values the option takes, offered by shell completion. */
  values: readonly string[] = [];
  /** For a hidden old name: the long flag shown in help that it stands for. */
  aliasOf: string | undefined;

  withValues(values: readonly string[]): this {
    this.values = values;
    return this;
  }
}

/**
 * The argParser of a list flag: given more than once, its values add up
 * (--scopes a --scopes b is a,b) rather than the last one winning.
 */
export const addsUp = (value: string, previous: string | undefined): string => (previous === undefined ? value : `${previous},${value}`);

/** The values of a comma-separated list flag (INV-1,INV-2), in order, blanks left out. */
export const listValues = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/**
 * `old` (as `--ref <text>`), hidden from help, standing for `visible`;
 * unless `together`, the two may not be given together.
 */
export function hiddenAlias(old: string, visible: Option, { together = false } = {}): AcctOption {
  const option = new AcctOption(old, `old name of ${visible.long ?? visible.flags}`).hideHelp();
  if (!together) option.conflicts(visible.attributeName());
  option.aliasOf = visible.long;
  return option;
}

/**
 * The width help is wrapped to: on a terminal its width ($COLUMNS first,
 * as tables take it), else 80, as commander wraps help for a pipe.
 */
export function helpWidthFor(error: boolean, env = process.env): number {
  return tableWidth(false, error ? process.stderr : process.stdout, env) ?? 80;
}

/**
 * Prose (a command's notes, the rules under acct --help) wrapped to
 * `width` at spaces, line by line; indented lines (examples) and blank
 * ones are kept as they are.
 */
export function wrapProse(text: string, width: number): string {
  const help = new Help();
  return text
    .split('\n')
    .map((line) => (line === '' || /^\s/.test(line) ? line : help.boxWrap(line, width)))
    .join('\n');
}

/**
 * Commander's help, laid out for a terminal of any width: a term (a flag
 * with its placeholder, a command with its arguments) too long for the
 * column goes on a line of its own with its description under it, so that
 * the descriptions keep room to wrap rather than running off the right.
 */
export class AcctHelp extends Help {
  /**
   * The term column: as wide as the widest term that stays on its line,
   * those at most 32 columns that leave 40 (minWidthToWrap) to the text.
   */
  override padWidth(cmd: Command, helper: Help): number {
    const cap = Math.max(16, Math.min(32, (this.helpWidth ?? 80) - 4 - this.minWidthToWrap));
    const terms = [
      ...helper.visibleOptions(cmd).map((o) => helper.styleOptionTerm(helper.optionTerm(o))),
      ...helper.visibleGlobalOptions(cmd).map((o) => helper.styleOptionTerm(helper.optionTerm(o))),
      ...helper.visibleCommands(cmd).map((c) => helper.styleSubcommandTerm(helper.subcommandTerm(c))),
      ...helper.visibleArguments(cmd).map((a) => helper.styleArgumentTerm(helper.argumentTerm(a))),
    ];
    const fitting = terms.map((t) => helper.displayWidth(t)).filter((w) => w <= cap);
    return fitting.length === 0 ? cap : Math.max(...fitting);
  }

  override formatItem(term: string, termWidth: number, description: string, helper: Help): string {
    if (description === '' || helper.displayWidth(term) <= termWidth) return super.formatItem(term, termWidth, description, helper);
    return `  ${term}\n${super.formatItem('', termWidth, description, helper)}`;
  }
}

export class AcctCommand extends Command {
  constructor(name?: string) {
    super(name);
    this.configureOutput({ getOutHelpWidth: () => helpWidthFor(false), getErrHelpWidth: () => helpWidthFor(true) });
  }

  override createCommand(name?: string): AcctCommand {
    return new AcctCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new AcctHelp(), this.configureHelp());
  }

  /** Text added to help is wrapped to the width the help itself is (its indented lines, examples, kept as they are). */
  override addHelpText(position: AddHelpTextPosition, text: string | ((context: AddHelpTextContext) => string)): this {
    const prose = (context: AddHelpTextContext): string => {
      const written = typeof text === 'string' ? text : text(context);
      return written ? wrapProse(written, helpWidthFor(context.error)) : written;
    };
    return super.addHelpText(position, prose);
  }

  /**
   * Commander's unknown option error, with its "Did you mean": a word
   * people use for one of this command's own flags (--date, --period: --as-of,
   * or --from and --to; --compare: --comparative), else the nearest of this
   * command's own long flags, else of its parents' (the global ones), each
   * by spelling or as the start of one; hidden old names included but
   * suggested by the name help shows (--from-dat: --from). Commander calls
   * this method itself; its own suggests only visible flags, the global
   * ones as readily as the command's (--date: --data, the data directory).
   */
  unknownOption(flag: string): void {
    const lineage = (c: Command | null): Command[] => (c ? [c, ...lineage(c.parent)] : []);
    const flagsOf = (commands: readonly Command[]): Map<string, string> => {
      const candidates = new Map<string, string>();
      for (const option of commands.flatMap((c) => c.options)) {
        if (!option.long) continue;
        if (!option.hidden) candidates.set(option.long, option.long);
        else if (option instanceof AcctOption && option.aliasOf) candidates.set(option.long, option.aliasOf);
      }
      return candidates;
    };
    const own = flagsOf([this]);
    const global = flagsOf(lineage(this.parent));
    const near = (candidates: Map<string, string>): string | null => {
      const found = closest(flag, [...candidates.keys()]) ?? startOf(flag, [...candidates.keys()]);
      return found === null ? null : (candidates.get(found) ?? found);
    };
    const suggested = flag.startsWith('--') ? (synonymOf(flag, new Set(own.values())) ?? near(own) ?? near(global)) : null;
    const suggestion = suggested === null ? '' : `\n(Did you mean ${suggested}?)`;
    this.error(`error: unknown option '${flag}'${suggestion}`, { code: 'commander.unknownOption' });
  }

  /**
   * Commander's unknown command error, its "Did you mean" also naming a
   * command that the word written out in full shortens (organisations:
   * orgs, organisation: org).
   */
  unknownCommand(): void {
    const word = this.args[0] ?? '';
    const names = this.createHelp()
      .visibleCommands(this)
      .flatMap((c) => [c.name(), ...c.aliases()]);
    const near =
      closest(
        `--${word}`,
        names.map((n) => `--${n}`),
      )?.slice(2) ?? shortened(word, names);
    const suggestion = near === null ? '' : `\n(Did you mean ${near}?)`;
    this.error(`error: unknown command '${word}'${suggestion}`, { code: 'commander.unknownCommand' });
  }
}

/** Words for a day or a period, and which end of a period they mean. */
const startWords = new Set(['from', 'since', 'start', 'start-date', 'begin']);
const endWords = new Set(['to', 'until', 'till', 'end', 'end-date']);
const dayWords = new Set(['date', 'day', 'period', 'on', 'at', 'as-at', 'asof', 'as-of', 'month', 'quarter', 'year', ...startWords, ...endWords]);
const compareWords = new Set(['compare', 'comparison', 'comparative', 'prior', 'previous', 'vs']);

/**
 * The flag of this command that a word people use stands for: a day or
 * period (--date, --period, --to) is --as-of on a report at a day, --from
 * and --to on one over a period; --compare is --comparative. Null when
 * the word is not one of them or the command has no such flag.
 */
function synonymOf(flag: string, own: ReadonlySet<string>): string | null {
  const word = flag.slice(2).toLowerCase();
  if (compareWords.has(word)) return ['--comparative', '--compare'].find((f) => own.has(f)) ?? null;
  if (!dayWords.has(word)) return null;
  if (own.has('--from') && own.has('--to')) {
    if (startWords.has(word)) return '--from';
    if (endWords.has(word)) return '--to';
    return own.has('--as-of') ? '--as-of' : '--from and --to';
  }
  return ['--as-of', '--date', '--period', '--from', '--to'].find((f) => own.has(f)) ?? null;
}

/** The only candidate that `flag` is the start of (--comp: --comparative), at least three letters of it; else null. */
function startOf(flag: string, candidates: readonly string[]): string | null {
  if (flag.length < 5) return null;
  const starting = candidates.filter((c) => c.startsWith(flag));
  return starting.length === 1 ? (starting[0] ?? null) : null;
}

/**
 * The command whose name shortens `word` (its letters in order, from the
 * first, and plural as the word is: organisations, orgs), the longest of
 * them; else null.
 */
function shortened(word: string, names: readonly string[]): string | null {
  const inOrder = (short: string, long: string): boolean => {
    let at = 0;
    for (const ch of long) if (ch === short[at]) at++;
    return at === short.length;
  };
  const plural = (w: string): boolean => w.endsWith('s');
  const fits = names.filter((n) => n.length >= 3 && n.length < word.length && n[0] === word[0] && plural(n) === plural(word) && inOrder(n, word));
  const longest = Math.max(0, ...fits.map((n) => n.length));
  const best = fits.filter((n) => n.length === longest);
  return best.length === 1 ? (best[0] ?? null) : null;
}

/** The candidate nearest `word` (at most 3 edits, and more alike than not, as commander suggests), or null. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 4;
  const bare = word.slice(2);
  for (const candidate of candidates) {
    const d = editDistance(bare, candidate.slice(2));
    const length = Math.max(bare.length, candidate.length - 2);
    if (d < bestDistance && (length - d) / length > 0.4) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
