import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { coerceText } from '../../engine/input.js';
import { parseWith } from '../../engine/schema.js';
import { isMonthDay } from '../../engine/dates.js';
import { businessTypes, vatSchemes } from '../../engine/organisation/organisation.js';
import { createOrganisation, defaultFiscalYearStart, newOrganisationSchema, type NewOrganisation } from '../../engine/organisation/provision.js';
import { setDefaultOrganisation } from '../../engine/platform/organisations.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';

interface InitFlags {
  readonly name?: string;
  readonly businessType?: string;
  readonly vatScheme?: string;
  readonly flatRatePercent?: string;
  readonly fiscalYearStart?: string;
  readonly yes?: boolean;
}

/** The prompts the wizard uses: @inquirer/prompts in a terminal, canned answers in tests. */
export interface Prompts {
  input(config: { message: string; default?: string; validate?: (v: string) => boolean | string }): Promise<string>;
  select<T extends string>(config: { message: string; choices: { name: string; value: T }[]; default?: T }): Promise<T>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
}

/** Ask for each answer in turn; returns null when the user declines at the end. */
export async function initWizard(prompts: Prompts): Promise<NewOrganisation | null> {
  const name = await prompts.input({
    message: 'Business name',
    validate: (v) => (v.trim() === '' ? 'Enter the name of the business' : v.length > 255 ? 'At most 255 characters' : true),
  });
  const businessType = await prompts.select({
    message: 'Business type',
    choices: [
      { name: 'Limited company', value: 'limited_company' as const },
      { name: 'Sole trader', value: 'sole_trader' as const },
    ],
  });
  const vatScheme = await prompts.select({
    message: 'VAT',
    choices: [
      { name: 'Not VAT registered', value: 'not_registered' as const },
      { name: 'Standard VAT accounting', value: 'standard' as const },
      { name: 'Flat Rate Scheme', value: 'flat_rate' as const },
    ],
  });
  let vatFlatRatePercent: number | undefined;
  if (vatScheme === 'flat_rate') {
    const answer = await prompts.input({
      message: 'Flat rate percentage for your trade (for example 12.5)',
      validate: (v) => (/^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) > 0 && Number(v) <= 100 ? true : 'A percentage such as 12.5'),
    });
    vatFlatRatePercent = Number(answer);
  }
  const fiscalYearStart = await prompts.input({
    message: 'First day of the financial year (MM-DD)',
    default: defaultFiscalYearStart[businessType],
    validate: (v) => (isMonthDay(v) ? true : 'A month and day such as 04-06'),
  });
  const input = parseWith(newOrganisationSchema, { name, businessType, vatScheme, vatFlatRatePercent, fiscalYearStart });
  return (await prompts.confirm({ message: `Create ${input.name}?`, default: true })) ? input : null;
}

function fromFlags(flags: InitFlags): NewOrganisation {
  const required: [keyof InitFlags, string][] = [
    ['name', '--name'],
    ['businessType', '--business-type'],
    ['vatScheme', '--vat-scheme'],
  ];
  for (const [field, flag] of required) {
    if (flags[field] === undefined) throw new AppError('validation_error', `${flag} is required (or run init in a terminal to be asked)`, field);
  }
  const raw = coerceText(newOrganisationSchema, {
    name: flags.name,
    businessType: flags.businessType,
    vatScheme: flags.vatScheme,
    vatFlatRatePercent: flags.flatRatePercent,
    fiscalYearStart: flags.fiscalYearStart,
  });
  return parseWith(newOrganisationSchema, Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
}

export function addInit(program: Command): void {
  const doc = handWritten.init;
  program
    .command(doc.name)
    .description(doc.summary)
    .option('--name <name>', 'name of the business')
    .option('--business-type <type>', `one of ${businessTypes.join(', ')}`)
    .option('--vat-scheme <scheme>', `one of ${vatSchemes.join(', ')}`)
    .option('--flat-rate-percent <n>', 'flat rate percentage, for the flat_rate scheme')
    .option('--fiscal-year-start <MM-DD>', 'first day of the financial year (default 04-06 sole trader, 04-01 company)')
    .option('--yes', 'ask nothing')
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: InitFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(
        globals,
        async (cli) => {
          const interactive = flags.name === undefined && flags.yes !== true && process.stdin.isTTY && process.stdout.isTTY;
          let input: NewOrganisation | null;
          if (interactive) {
            const prompts = (await import('@inquirer/prompts')) as unknown as Prompts;
            input = await initWizard(prompts);
            if (input === null) {
              console.error('Nothing created.');
              return;
            }
          } else input = fromFlags(flags);
          const created = await createOrganisation(cli.store, cli.clock, input);
          await setDefaultOrganisation(cli.store, created.organisationId);
          if (globals.json) {
            process.stdout.write(`${JSON.stringify(created)}\n`);
            return;
          }
          process.stdout.write(
            [
              `Created ${input.name} (${created.organisationId}) in ${cli.store.dataDir}`,
              `  live API key: ${created.apiKey}`,
              `  test API key: ${created.testApiKey}`,
              'Keep the keys safe: they are shown only this once.',
              '',
            ].join('\n'),
          );
        },
        { create: true },
      );
    });
}
