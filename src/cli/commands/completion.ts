/**
 * `acct completion bash|zsh|fish`: a completion script made from the program
 * itself, so that it knows every command the registry generates and every
 * hand-written one, their flags (hidden old names left out), and the
 * values of flags that take one of a list.
 */
import { Argument, type Command } from 'commander';
import { AcctOption } from '../command.js';
import { examplesText, handWritten } from '../help.js';

interface FlagSpec {
  readonly name: string;
  /** Whether the next word is the flag's value (`<value>`, not `[bool]`). */
  readonly takesValue: boolean;
  readonly values: readonly string[];
  readonly summary: string;
}

interface CommandSpec {
  /** The words that lead to it: "" for acct itself, "invoices create". */
  readonly path: string;
  /** Its subcommands, or else the choices of its first argument. */
  readonly subcommands: readonly { readonly name: string; readonly summary: string }[];
  readonly flags: readonly FlagSpec[];
}

/** A description cut to its first clause, for the shells that show one. */
const short = (text: string): string => (text.split(/[;:(]/)[0] ?? '').trim().slice(0, 70);

/** Every command of the program, depth first, with its visible flags and subcommands. */
export function commandSpecs(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string) => {
    const flags: FlagSpec[] = [];
    for (const option of command.options) {
      if (option.hidden) continue;
      const values = option instanceof AcctOption && option.values.length > 0 ? option.values : (option.argChoices ?? []);
      for (const name of [option.long, option.short]) {
        if (name) flags.push({ name, takesValue: option.required, values, summary: short(option.description) });
      }
    }
    // A command without subcommands offers the choices of its first argument in their place (completion bash|zsh|fish).
    const choices = command.registeredArguments[0]?.argChoices ?? [];
    const subcommands =
      command.commands.length > 0
        ? command.commands.map((c) => ({ name: c.name(), summary: short(c.description()) }))
        : choices.map((name) => ({ name, summary: '' }));
    specs.push({ path, subcommands, flags });
    for (const c of command.commands) visit(c, path === '' ? c.name() : `${path} ${c.name()}`);
  };
  visit(program, '');
  return specs;
}

const shellWord = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The case tables the bash and zsh scripts share: subcommands, flags, flags that take a value, and the values. */
function tables(specs: readonly CommandSpec[]): string {
  const cases = (name: string, args: string, rows: [string, string][]): string =>
    [`${name}() {`, `  case ${args} in`, ...rows.map(([key, body]) => `    ${shellWord(key)}) ${body} ;;`), '  esac', '  return 1', '}'].join('\n');
  const global = specs.find((s) => s.path === '')!;
  const takes = specs.flatMap((s) => s.flags.filter((f) => f.takesValue).map((f) => `${s.path}|${f.name}`));
  return [
    cases(
      '_acct_subcommands',
      '"$1"',
      specs.filter((s) => s.subcommands.length > 0).map((s) => [s.path, `echo ${shellWord(s.subcommands.map((c) => c.name).join(' '))}; return 0`]),
    ),
    cases(
      '_acct_flags',
      '"$1"',
      specs.map((s) => [s.path, `echo ${shellWord([...s.flags, ...(s.path === '' ? [] : global.flags)].map((f) => f.name).join(' '))}; return 0`]),
    ),
    // A global option takes its value under any command.
    `_acct_takes_value() {\n  case "$1|$2" in\n${takes.map((k) => `    ${shellWord(k)}) return 0 ;;`).join('\n')}\n  esac\n  case "|$2" in\n${global.flags
      .filter((f) => f.takesValue)
      .map((f) => `    ${shellWord(`|${f.name}`)}) return 0 ;;`)
      .join('\n')}\n  esac\n  return 1\n}`,
    cases(
      '_acct_values',
      '"$1|$2"',
      specs.flatMap((s) =>
        s.flags.filter((f) => f.values.length > 0).map((f): [string, string] => [`${s.path}|${f.name}`, `echo ${shellWord(f.values.join(' '))}; return 0`]),
      ),
    ),
  ].join('\n\n');
}

function bashScript(specs: readonly CommandSpec[]): string {
  return `# bash completion for acct; load it with: source <(acct completion bash)
${tables(specs)}

_acct() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" w i subs
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) continue ;; esac
    _acct_takes_value "$cmdpath" "\${COMP_WORDS[i-1]}" && continue
    subs=" $(_acct_subcommands "$cmdpath") "
    case "$subs" in *" $w "*) cmdpath="\${cmdpath:+$cmdpath }$w" ;; esac
  done
  if [[ $COMP_CWORD -gt 1 ]] && _acct_takes_value "$cmdpath" "$prev"; then
    local values
    values="$(_acct_values "$cmdpath" "$prev")"
    if [[ -n $values ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_acct_flags "$cmdpath")" -- "$cur"))
    return 0
  fi
  subs="$(_acct_subcommands "$cmdpath")"
  if [[ -n $subs ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
  return 0
}
complete -o filenames -F _acct acct
`;
}

function zshScript(specs: readonly CommandSpec[]): string {
  return `#compdef acct
# zsh completion for acct; load it after compinit with: source <(acct completion zsh)
${tables(specs)}

_acct() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmdpath="" w i subs values
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ $w == -* ]] && continue
    _acct_takes_value "$cmdpath" "\${words[i-1]}" && continue
    subs=" $(_acct_subcommands "$cmdpath") "
    [[ $subs == *" $w "* ]] && cmdpath="\${cmdpath:+$cmdpath }$w"
  done
  if (( CURRENT > 2 )) && _acct_takes_value "$cmdpath" "$prev"; then
    values="$(_acct_values "$cmdpath" "$prev")"
    if [[ -n $values ]]; then compadd -- \${=values}; else _files; fi
    return
  fi
  if [[ $cur == -* ]]; then
    compadd -- \${=$(_acct_flags "$cmdpath")}
    return
  fi
  subs="$(_acct_subcommands "$cmdpath")"
  if [[ -n $subs ]]; then compadd -- \${=subs}; else _files; fi
}
compdef _acct acct
`;
}

const fishWord = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishScript(specs: readonly CommandSpec[]): string {
  const lines = [
    '# fish completion for acct; load it with: acct completion fish | source',
    'function __acct_subcommands',
    '    switch "$argv[1]"',
    ...specs
      .filter((s) => s.subcommands.length > 0)
      .flatMap((s) => [`        case ${fishWord(s.path)}`, `            echo ${fishWord(s.subcommands.map((c) => c.name).join(' '))}`]),
    '    end',
    'end',
    '',
    '# The command words typed so far ("invoices create"), options and their values left out.',
    'function __acct_path',
    '    set -l words (commandline -opc)',
    "    set -l path ''",
    '    for w in $words[2..-1]',
    "        string match -q -- '-*' $w; and continue",
    '        if contains -- $w (string split " " -- (__acct_subcommands "$path"))',
    '            if test -z "$path"',
    '                set path $w',
    '            else',
    '                set path "$path $w"',
    '            end',
    '        end',
    '    end',
    '    echo $path',
    'end',
    '',
    'function __acct_at',
    '    set -l path (__acct_path)',
    '    test "$path" = "$argv[1]"',
    'end',
    '',
    'complete -c acct -f',
  ];
  const global = specs.find((s) => s.path === '')!;
  const flagLine = (f: FlagSpec, condition: string | null): string => {
    const name = f.name.startsWith('--') ? `-l ${f.name.slice(2)}` : `-s ${f.name.slice(1)}`;
    const value = f.values.length > 0 ? ` -x -a ${fishWord(f.values.join(' '))}` : f.takesValue ? ' -r -F' : '';
    return `complete -c acct${condition === null ? '' : ` -n ${fishWord(`__acct_at ${shellWord(condition)}`)}`} ${name}${value} -d ${fishWord(f.summary)}`;
  };
  for (const f of global.flags) lines.push(flagLine(f, null));
  for (const s of specs) {
    for (const c of s.subcommands)
      lines.push(`complete -c acct -n ${fishWord(`__acct_at ${shellWord(s.path)}`)} -a ${fishWord(c.name)} -d ${fishWord(c.summary)}`);
    if (s.path !== '') for (const f of s.flags) lines.push(flagLine(f, s.path));
  }
  return `${lines.join('\n')}\n`;
}

const scripts = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** `acct completion SHELL`; `build` makes the whole program (this run's own may leave out the groups it does not need). */
export function addCompletion(program: Command, build: () => Promise<Command>): void {
  const doc = handWritten.completion;
  program
    .command(doc.name)
    .description(doc.summary)
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(scripts)))
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (shell: keyof typeof scripts) => {
      process.stdout.write(scripts[shell](commandSpecs(await build())));
    });
}
