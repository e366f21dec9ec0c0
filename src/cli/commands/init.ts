import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { coerceText } from '../../engine/input.js';
import { parseWith } from '../../engine/schema.js';
import { loadOrganisation, businessTypes, vatSchemes } from '../../engine/organisation/organisation.js';
import { checkNewOrganisation, createOrganisation, newOrganisationSchema, type NewOrganisation } from '../../engine/organisation/provision.js';
import { listOrganisations, organisationInUse, setDefaultOrganisation } from '../../engine/platform/organisations.js';
import type { Store } from '../../store/store.js';
import { reportError, withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';
import { initWizard, type Prompts } from '../init-wizard.js';
import { shellWord } from '../shell-word.js';
import { tableWidth, textWidth } from '../fit-table.js';

interface InitFlags {
  readonly name?: string;
  readonly businessType?: string;
  readonly vatScheme?: string;
  readonly flatRatePercent?: string;
  readonly fiscalYearStart?: string;
  readonly vatNumber?: string;
  readonly companyNumber?: string;
  readonly addressLine1?: string;
  readonly addressLine2?: string;
  readonly city?: string;
  readonly region?: string;
  readonly postalCode?: string;
  readonly use?: boolean;
  readonly yes?: boolean;
}

function fromFlags(flags: InitFlags): NewOrganisation {
  const required: [keyof InitFlags, string][] = [
    ['name', '--name'],
    ['businessType', '--business-type'],
    ['vatScheme', '--vat-scheme'],
  ];
  for (const [field, flag] of required) {
    if (flags[field] === undefined) throw new AppError('validation_error', `${flag} is required (or run init in a terminal to be asked)`, flag);
  }
  const raw = coerceText(newOrganisationSchema, {
    name: flags.name,
    businessType: flags.businessType,
    vatScheme: flags.vatScheme,
    vatFlatRatePercent: flags.flatRatePercent,
    fiscalYearStart: flags.fiscalYearStart,
    vatNumber: flags.vatNumber,
    companyNumber: flags.companyNumber,
    addressLine1: flags.addressLine1,
    addressLine2: flags.addressLine2,
    city: flags.city,
    region: flags.region,
    postalCode: flags.postalCode,
  });
  const input = parseWith(newOrganisationSchema, Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
  checkNewOrganisation(input);
  return input;
}

const nameOf = async (store: Store, id: string): Promise<string> => (await loadOrganisation(store.org(id, 'live').db)).name;

/**
 * What to do next, as commands to copy: on the new organisation (after
 * `acct use` when init kept another in use), with the --data given.
 */
function nextSteps(input: NewOrganisation, globals: GlobalOptions, switchTo: string | null): string[] {
  // Each command as the words a shell reads, so that a narrow terminal can break it between them.
  const acct = globals.data === undefined ? ['acct'] : ['acct', '--data', shellWord(globals.data)];
  const rate = input.vatScheme === 'not_registered' ? '' : ';standard';
  const steps: [string, string[]][] = [
    ...(switchTo === null ? [] : ([['work on it', [...acct, 'use', shellWord(switchTo)]]] as [string, string[]][])),
    ['add a customer', [...acct, 'contacts', 'create', '--contact-type', 'customer', '--name', '"Bob Ltd"', '--email', 'bob@example.com']],
    ['invoice them', [...acct, 'invoices', 'create', '--contact-id', '"Bob Ltd"', '--item', `"Consulting;1;500.00${rate}"`]],
    ['import a bank statement', [...acct, 'bank', 'import', 'statement.csv']],
    ['serve the API to your tools', [...acct, 'serve']],
  ];
  const pad = Math.max(...steps.map(([what]) => what.length)) + 1;
  const lines = steps.map(([what, words]) => `  ${`${what}:`.padEnd(pad)} ${words.join(' ')}`);
  // A terminal too narrow for them would wrap the commands mid-word: each goes under its label, broken between words
  // with the shell's \ so that it still pastes as one command.
  const width = tableWidth(false);
  if (width !== undefined && lines.some((line) => textWidth(line) > width))
    return ['Next steps:', ...steps.flatMap(([what, words]) => [`  ${what}:`, ...continued(words, width, '    ')])];
  return ['Next steps:', ...lines];
}

/**
 * A command's shell words in lines of at most `width` where it can be,
 * broken between words (a flag kept with its value) and continued with \.
 */
function continued(words: readonly string[], width: number, indent: string): string[] {
  const units: string[] = [];
  for (const word of words) {
    const last = units.at(-1);
    if (last !== undefined && /^--[^\s=]+$/.test(last) && !word.startsWith('-')) units[units.length - 1] = `${last} ${word}`;
    else units.push(word);
  }
  const lines: string[] = [];
  let line = indent;
  for (const unit of units) {
    const next = line.trim() === '' ? `${line}${unit}` : `${line} ${unit}`;
    const fresh = `${indent}  ${unit}`;
    // Room for " \" at the end of a line that is continued; a unit too long for any line stays where it is.
    if (line.trim() !== '' && textWidth(next) + 2 > width && textWidth(fresh) + 2 <= width) {
      lines.push(`${line} \\`);
      line = fresh;
    } else line = next;
  }
  return [...lines, line];
}

/** The organisation asked for: by the wizard in a terminal when no --name (or --yes) is given, else by the flags; null when declined at the end. */
async function answers(flags: InitFlags): Promise<NewOrganisation | null> {
  const interactive = flags.name === undefined && flags.yes !== true && process.stdin.isTTY && process.stdout.isTTY;
  if (!interactive) return fromFlags(flags);
  const prompts = (await import('@inquirer/prompts')) as unknown as Prompts;
  return initWizard(prompts);
}

/**
 * Ctrl-C or Ctrl-D at a prompt: inquirer rejects with its ExitPromptError,
 * known by its name, as inquirer's own documentation tells callers to
 * (its class is not exported by @inquirer/prompts).
 */
const cancelled = (e: unknown): boolean => e instanceof Error && e.name === 'ExitPromptError';

/**
 * Refuse a name another organisation in the data directory has, ignoring
 * case: the CLI names organisations by name (acct use NAME, --org NAME),
 * and two of one name could then be named by id only.
 */
async function refuseTakenName(store: Store, name: string): Promise<void> {
  const wanted = name.trim().toLowerCase();
  const same = (await listOrganisations(store)).find((o) => o.name.trim().toLowerCase() === wanted);
  if (same !== undefined) {
    throw new AppError('conflict', `${store.dataDir} already has an organisation named ${same.name} (${same.id}): choose another name`, '--name');
  }
}

export function addInit(program: Command): void {
  const doc = handWritten.init;
  program
    .command(doc.name)
    .description(doc.summary)
    .option('--name <name>', 'name of the business')
    .option('--business-type <type>', `one of ${businessTypes.join(', ')}`)
    .option('--vat-scheme <scheme>', `one of ${vatSchemes.join(', ')}`)
    .option('--flat-rate-percent <n>', 'flat rate percentage, for the flat_rate scheme (4 to 16.5)')
    .option('--fiscal-year-start <MM-DD>', 'first day of the financial year (default 04-06 sole trader, 04-01 company)')
    .option('--vat-number <number>', "VAT registration number, checked against HMRC's check digits (GB 980 7806 84)")
    .option('--company-number <number>', 'Companies House number, for a limited company (01234567, SC123456)')
    .option('--address-line1 <text>', 'first line of the address')
    .option('--address-line2 <text>', 'second line of the address')
    .option('--city <text>', 'town or city')
    .option('--region <text>', 'county or region')
    .option('--postal-code <text>', 'postcode')
    .option('--use', 'work on the new organisation from now on, even when another is in use (see use)')
    .option('--yes', 'ask nothing')
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: InitFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      // The answers are read and checked before the data directory is opened: a refused or cancelled init leaves no file behind.
      let asked: NewOrganisation | null;
      try {
        asked = await answers(flags);
      } catch (e) {
        if (!cancelled(e)) {
          reportError(e, globals.json === true);
          return;
        }
        console.error('Cancelled: nothing created.');
        process.exitCode = 130;
        return;
      }
      if (asked === null) {
        console.error('Nothing created.');
        return;
      }
      const input = asked;
      await withCli(
        globals,
        async (cli) => {
          await refuseTakenName(cli.store, input.name);
          const inUse = await organisationInUse(cli.store);
          const created = await createOrganisation(cli.store, cli.clock, input);
          const keep = inUse !== null && flags.use !== true;
          await setDefaultOrganisation(cli.store, keep ? inUse : created.organisationId);
          if (globals.json) {
            process.stdout.write(`${JSON.stringify(created)}\n`);
            return;
          }
          const lines = [
            `Created ${input.name} (${created.organisationId}) in ${cli.store.dataDir}`,
            `  live API key: ${created.apiKey}`,
            `  test API key: ${created.testApiKey}`,
            'Keep the keys safe: they are shown only this once.',
          ];
          if (keep) {
            lines.push(
              `Still using ${await nameOf(cli.store, inUse)}: acct use ${shellWord(input.name)} switches to ${input.name} (or pass --org to one command).`,
            );
          } else if (inUse !== null && inUse !== created.organisationId) {
            lines.push(`Now using ${input.name} instead of ${await nameOf(cli.store, inUse)}.`);
          }
          process.stdout.write([...lines, '', ...nextSteps(input, globals, keep ? input.name : null), ''].join('\n'));
        },
        { create: true },
      );
    });
}
