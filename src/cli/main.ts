/** The acct command line: global options, hand-written commands, and a command per operation. */
import { Command, CommanderError } from 'commander';
import chalk from 'chalk';
import { version } from '../version.js';
import { addOperationCommands } from './generate.js';
import { reportError } from './context.js';
import { dateRule, moneyRule, referenceRule } from './help.js';
import { operationGroupNames, operationsOfGroup } from './operation-groups.js';
import { loadPresenters } from './presenters/registry.js';
import { AcctCommand } from './command.js';

type AddCommand = (program: Command) => void;

/**
 * The hand-written commands, in the order help lists them, each with the
 * command word it adds (or adds to) and loaded only when a run needs it;
 * `operations` marks where the commands generated from the registry go.
 */
const handWritten: readonly (readonly [word: string, load: () => Promise<AddCommand>] | 'operations')[] = [
  ['init', async () => (await import('./commands/init.js')).addInit],
  ['serve', async () => (await import('./commands/serve.js')).addServe],
  ['use', async () => (await import('./commands/use.js')).addUse],
  ['demo', async () => (await import('./commands/demo.js')).addDemo],
  ['post', async () => (await import('./commands/post.js')).addPost],
  ['ledger', async () => (await import('./commands/ledger.js')).addLedger],
  ['import', async () => (await import('./commands/import.js')).addImport],
  ['export', async () => (await import('./commands/export.js')).addExport],
  ['openapi', async () => (await import('./commands/openapi.js')).addOpenApi],
  ['vat', async () => (await import('./commands/vat-connect.js')).addVatConnect],
  ['bank', async () => (await import('./commands/bank.js')).addBank],
  ['company', async () => (await import('./commands/company.js')).addCompany],
  ['migrate', async () => (await import('./commands/migrate.js')).addMigrate],
  ['migrate-store', async () => (await import('./commands/migrate-store.js')).addMigrateStore],
  ['admin', async () => (await import('./commands/admin.js')).addAdmin],
  'operations',
  ['webhooks', async () => (await import('./commands/webhooks-verify.js')).addWebhooksVerify],
  // The completion scripts cover every command: they build the whole program.
  [
    'completion',
    async () => {
      const { addCompletion } = await import('./commands/completion.js');
      return (program) => addCompletion(program, () => buildProgram());
    },
  ],
];

export const globalOptionDocs = [
  ['--data <dir>', 'data directory (default $ACCT_DATA, else ./acct-data)'],
  [
    '--database <url>',
    'keep the books in PostgreSQL, as postgres://user:pass@host:port/db?schema=acct (default $ACCT_DATABASE_URL, else the one acct init recorded in the data directory, else SQLite files there)',
  ],
  ['--org <org>', 'organisation to work on: its id, its name or the start of either (default: the one chosen with acct use, else the only one)'],
  ['--test', "work on the organisation's test books instead of the live ones"],
  ['--json', 'print the data as JSON, as the API returns it (amounts in pence); every list as an array, whole unless --page or --limit (--per-page)'],
  ['--wide', 'print every column of a table; on a terminal, tables are otherwise narrowed to its width ($COLUMNS, else the window)'],
  ['--smtp <url>', 'SMTP server for e-mailing invoices, as smtp://user:pass@host:port (default $ACCT_SMTP_URL)'],
  ['--hmrc-base-url <url>', "HMRC's API for Making Tax Digital (default $ACCT_HMRC_BASE_URL, else the sandbox https://test-api.service.hmrc.gov.uk)"],
  ['--no-color', 'print without colour, as NO_COLOR=1 does (FORCE_COLOR=1 colours even into a pipe, and wins over NO_COLOR)'],
] as const;

/**
 * Colour by the conventions: on a terminal only (chalk's own test), never
 * with --no-color, nor with NO_COLOR set and not empty (no-color.org)
 * unless FORCE_COLOR is set, which chalk reads to colour even into a pipe.
 */
export function chooseColour(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  const forced = env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '';
  const refused = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  const end = argv.indexOf('--');
  if ((end === -1 ? argv : argv.slice(0, end)).includes('--no-color') || (refused && !forced)) chalk.level = 0;
}

/**
 * The command a run names: its first word that is not a global option or
 * an option's value; undefined when there is none or it asks for help, so
 * that help lists everything.
 */
export function commandWord(args: readonly string[]): string | undefined {
  const takesValue = new Set(globalOptionDocs.filter(([flag]) => flag.includes('<')).map(([flag]) => flag.split(' ')[0]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg === 'help' ? undefined : arg;
    if (takesValue.has(arg)) i++;
  }
  return undefined;
}

/**
 * The program. A run that names a command (`only`) gets that command
 * alone, loaded with its modules only: the other commands, and the other
 * operation groups' schemas and presenters, are most of a short command's
 * start-up and take no part in it. Without `only`, or with a word that
 * names no command (commander then suggests one), every command is built.
 */
export async function buildProgram(only?: string): Promise<Command> {
  const known = only !== undefined && (operationGroupNames.includes(only) || handWritten.some((h) => h !== 'operations' && h[0] === only));
  const program = new AcctCommand('acct')
    .description('Bookkeeping for UK sole traders and limited companies: local books, and the same engine as a JSON API')
    .version(version)
    .showSuggestionAfterError()
    .addHelpText('after', `\n${moneyRule}\n\n${referenceRule}\n\n${dateRule}`)
    .exitOverride();
  for (const [flag, description] of globalOptionDocs) program.option(flag, description);
  const [adders, operations] = await Promise.all([
    Promise.all(handWritten.map(async (h) => (h === 'operations' || (known && h[0] !== only) ? undefined : h[1]()))),
    known ? operationsOfGroup(only).then((ops) => ops ?? []) : import('../engine/registry.js').then((m) => m.operations),
    loadPresenters(known ? only : undefined),
  ]);
  handWritten.forEach((h, i) => {
    if (h === 'operations') addOperationCommands(program, operations, only);
    else adders[i]?.(program);
  });
  for (const cmd of program.commands) {
    cmd.exitOverride();
    for (const sub of cmd.commands) sub.exitOverride();
  }
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  // Output piped into a reader that stops early (acct … | head): stop quietly, as cat does.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  chooseColour(argv, process.env);
  try {
    await (await buildProgram(commandWord(argv.slice(2)))).parseAsync([...argv]);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander has printed its message; usage errors exit 2, help and version 0.
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    reportError(e, argv.includes('--json'));
  }
}
