/**
 * A command group's one-line description names its commands, and only
 * real ones: `acct periods` said "list, show, close" and `acct
 * bank-imports` "upload, show, …" where the command is get, and `acct
 * transactions` "post" where posting a draft is status; typing the word
 * gave "unknown command". Each description ends with its commands after a
 * colon, comma-separated, each item starting with the command's own word
 * (the rest of the item, often in brackets, says what it does).
 */
import t from 'tap';
import { buildProgram } from '../../src/cli/main.js';

/** Split `text` at `separator` where it stands outside brackets. */
function splitOutsideBrackets(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The first word of each item of the list after a description's last colon (outside brackets). */
function namedCommands(description: string): string[] {
  const parts = splitOutsideBrackets(description, ': ');
  if (parts.length < 2) return [];
  return splitOutsideBrackets(parts.at(-1)!, ', ').map((item) => item.trim().split(/[\s(]/)[0]!);
}

t.test('every command group names its commands, and each one named is a real subcommand', async (t) => {
  const program = await buildProgram();
  const groups = program.commands.filter((c) => c.commands.length > 0);
  t.ok(groups.length > 30, 'the groups are there');
  for (const group of groups) {
    const real = new Set(group.commands.flatMap((c) => [c.name(), ...c.aliases()]));
    const named = namedCommands(group.description());
    t.ok(named.length > 0, `acct ${group.name()}: "${group.description()}" ends with its commands after a colon`);
    for (const word of named) t.ok(real.has(word), `acct ${group.name()} ${word} is a command (the group has ${[...real].join(', ')})`);
  }
});

t.test('the three reported: the words are the commands typed', async (t) => {
  const program = await buildProgram();
  const named = (name: string) => namedCommands(program.commands.find((c) => c.name() === name)!.description());
  t.same(named('periods'), ['list', 'get', 'close']);
  t.ok(named('bank-imports').includes('undo'), 'bank-imports names undo');
  t.notOk(named('bank-imports').includes('show'));
  t.ok(named('transactions').includes('status'), 'posting a draft is transactions status');
  t.notOk(named('transactions').includes('post'));
});
