/**
 * acct's commander classes: an option that knows the values it takes (for
 * shell completion) and the older names it still answers to (hidden from
 * help), and a command whose "Did you mean" also knows those older names.
 */
import { Command, Option } from 'commander';

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
 * `old` (as `--ref <text>`), hidden from help, standing for `visible`;
 * unless `together`, the two may not be given together.
 */
export function hiddenAlias(old: string, visible: Option, { together = false } = {}): AcctOption {
  const option = new AcctOption(old, `old name of ${visible.long ?? visible.flags}`).hideHelp();
  if (!together) option.conflicts(visible.attributeName());
  option.aliasOf = visible.long;
  return option;
}

export class AcctCommand extends Command {
  override createCommand(name?: string): AcctCommand {
    return new AcctCommand(name);
  }

  /**
   * Commander's unknown option error, with its "Did you mean" taken from
   * every long flag of this command and its parents, hidden old names
   * included but suggested by the name help shows (--from-dat: --from).
   * Commander calls this method itself; it suggests only visible flags.
   */
  unknownOption(flag: string): void {
    const candidates = new Map<string, string>();
    const lineage = (c: Command | null): Command[] => (c ? [c, ...lineage(c.parent)] : []);
    for (const command of lineage(this)) {
      for (const option of command.options) {
        if (!option.long) continue;
        if (!option.hidden) candidates.set(option.long, option.long);
        else if (option instanceof AcctOption && option.aliasOf) candidates.set(option.long, option.aliasOf);
      }
    }
    const near = flag.startsWith('--') ? closest(flag, [...candidates.keys()]) : null;
    const suggestion = near === null ? '' : `\n(Did you mean ${candidates.get(near) ?? near}?)`;
    this.error(`error: unknown option '${flag}'${suggestion}`, { code: 'commander.unknownOption' });
  }
}

/** Optimal string alignment distance (a swap of neighbours counts one), as commander's own suggestion measures. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate nearest `word` (at most 3 edits, and more alike than not, as commander suggests), or null. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 4;
  const bare = word.slice(2);
  for (const candidate of candidates) {
    const d = distance(bare, candidate.slice(2));
    const length = Math.max(bare.length, candidate.length - 2);
    if (d < bestDistance && (length - d) / length > 0.4) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
