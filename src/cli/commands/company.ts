/**
 * `acct company year-end --year N`: the year-end pack printed for people,
 * and written where the user says (never to a name made from the data, never
 * over a file without --force) as PDF (--pdf FILE) and JSON (--json-file FILE).
 */
import chalk from 'chalk';
import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { displayPounds } from '../../engine/money.js';
import { yearEndOp } from '../../engine/company/dividend-ops.js';
import type { YearEnd } from '../../engine/company/year-end.js';
import { loadOrganisation } from '../../engine/organisation/organisation.js';
import { orgOf, pdfFile } from '../../engine/operation.js';
import { addressLines } from '../../pdf/format.js';
import { checkOutput, withCli, writeFileResult, type GlobalOptions } from '../context.js';
import { expandDates } from '../date-flags.js';
import { refusedAsTyped } from '../generate.js';
import { examplesText, groupSummaries, handWritten } from '../help.js';
import { fittedTable, printableData } from '../render.js';
import { essential, tableWidth } from '../fit-table.js';

function printed(given: YearEnd, width: number | undefined): string {
  // Names and addresses from the books, made printable before they are styled.
  const pack = printableData(given);
  const out = [
    chalk.bold(`${pack.company.name}: year-end pack, ${pack.financialYear.from} to ${pack.financialYear.to}`),
    '',
    chalk.bold("Directors' loan accounts at the year end (CT600A, P11D)"),
  ];
  if (pack.directorLoans.length === 0) out.push('  no directors');
  else {
    out.push(
      fittedTable(
        [
          ['director', 'owed', 'with connected', 'S455 tax', 'repay by', 'status', 'P11D benefit'],
          ...pack.directorLoans.map((l) => [
            l.fullName,
            displayPounds(l.balancePence),
            displayPounds(l.aggregatedBalancePence),
            displayPounds(l.s455.exposurePence),
            l.s455.deadline,
            l.s455.status,
            l.bik.applicable ? `${displayPounds(l.bik.benefitPence)} (${l.bik.taxYear})` : 'none',
          ]),
        ],
        // On a narrow terminal the P11D benefit goes first, then the status, the deadline and the figure with connected persons.
        [essential, essential, 3, essential, 3, 3, 2].map((keep, i) => ({ keep, shrink: i === 0 })),
        width,
        { right: [1, 2, 3] },
      ).trimEnd(),
    );
  }
  const gap = pack.unallocatedDirectorLoan;
  if (gap.balancePence !== 0 || gap.s455ExposurePence !== 0)
    out.push(`in no director's account: ${displayPounds(gap.balancePence)}, S455 ${displayPounds(gap.s455ExposurePence)}`);
  out.push(`S455 tax if not repaid in time: ${displayPounds(pack.totalS455ExposurePence)}`);
  for (const w of pack.warnings) out.push(chalk.yellow(`warning: ${w}`));
  out.push('', chalk.bold('Dividends for the year'));
  for (const d of pack.dividends.byDirector)
    out.push(`  ${d.fullName}: declared ${displayPounds(d.totalDeclaredPence)}, paid ${displayPounds(d.totalPaidPence)}`);
  const dv = pack.dividends;
  out.push(
    `  in all: declared ${displayPounds(dv.declaredPence)}, paid ${displayPounds(dv.paidPence)}; owed at the year end ${displayPounds(dv.owedAtYearEndPence)}`,
  );
  if (dv.afterYearEnd.declared.length > 0 || dv.afterYearEnd.paidPence !== 0) {
    out.push(`  after the year end, to ${dv.afterYearEnd.to} (not in the year's figures):`);
    for (const d of dv.afterYearEnd.declared) out.push(`    ${d.voucherNumber} ${d.fullName}: declared ${displayPounds(d.amountPence)} on ${d.dateDeclared}`);
    out.push(`    declared ${displayPounds(dv.afterYearEnd.declaredPence)}, paid ${displayPounds(dv.afterYearEnd.paidPence)}`);
  }
  const y = pack.yearEnd;
  out.push('', chalk.bold(`Retained earnings at the year end, ${pack.financialYear.to}`));
  out.push(
    `  profit ${displayPounds(y.profitPence)}, less dividends declared by then ${displayPounds(y.dividendsPence)}: ${displayPounds(y.retainedEarningsPence)}`,
  );
  out.push('', chalk.bold(`Profit check on ${pack.preparedOn}`));
  const p = pack.profitCheck;
  out.push(
    `  retained after other years' dividends ${displayPounds(p.retainedEarningsPence)}, declared for the year ${displayPounds(p.previouslyDeclaredPence)}, available to declare ${displayPounds(p.availableProfitPence)}`,
  );
  return `${out.join('\n')}\n`;
}

/** A refusal named by the flag typed (--prepared-on), not the API's field (preparedOn). */
const asTyped = refusedAsTyped({ preparedOn: '--prepared-on', year: '--year' });

export function addCompany(program: Command): void {
  const group = program.command('company').description(groupSummaries['company'] ?? '');
  const doc = handWritten.companyYearEnd;
  group
    .command('year-end')
    .requiredOption('--year <year>', 'the calendar year the financial year ends in')
    .option('--prepared-on <date>', 'the day the books are read to, on or after the year end (default today): loans repaid by then owe no S455')
    .option('--pdf <file>', 'also write the pack as a PDF (- for standard output)')
    .option('--json-file <file>', 'also write the pack as JSON (amounts in pence)')
    .option('--force', 'overwrite the --pdf or --json-file file if it exists')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: { year: string; preparedOn?: string; pdf?: string; jsonFile?: string; force?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const force = flags.force === true;
        if (flags.pdf !== undefined) checkOutput(flags.pdf, force);
        if (flags.jsonFile !== undefined) checkOutput(flags.jsonFile, force);
        if (flags.pdf === '-' && flags.jsonFile === '-')
          throw new AppError('validation_error', 'only one of --pdf and --json-file can be standard output', '--json-file');
        const query = { year: flags.year, ...(flags.preparedOn === undefined ? {} : { preparedOn: flags.preparedOn }) };
        const raw = await expandDates(cli, yearEndOp, { params: {}, query, body: undefined }, (field) =>
          field === 'preparedOn' ? '--prepared-on' : `--${field}`,
        );
        const pack = (await cli.run(yearEndOp, raw).catch(asTyped)).data as YearEnd;
        if (flags.jsonFile !== undefined)
          writeFileResult(
            { contentType: 'application/json', filename: 'year-end.json', bytes: new TextEncoder().encode(`${JSON.stringify(pack, null, 2)}\n`) },
            flags.jsonFile,
            force,
          );
        if (flags.pdf !== undefined) {
          const { db } = orgOf(await cli.ctx());
          const org = await loadOrganisation(db);
          const { renderYearEnd } = await import('../../pdf/year-end.js');
          const bytes = await renderYearEnd({
            company: { name: org.name, companyNumber: org.company_number, address: addressLines(org) },
            financialYear: pack.financialYear,
            preparedOn: pack.preparedOn,
            loans: pack.directorLoans.map((l) => ({
              fullName: l.fullName,
              balancePence: l.balancePence,
              aggregatedBalancePence: l.aggregatedBalancePence,
              s455ExposurePence: l.s455.exposurePence,
              s455Rate: l.s455.rate,
              s455Status: l.s455.status,
              deadline: l.s455.deadline,
              bikApplicable: l.bik.applicable,
              bikTaxYear: l.bik.taxYear,
              bikBenefitPence: l.bik.benefitPence,
            })),
            totalS455ExposurePence: pack.totalS455ExposurePence,
            dividends: pack.dividends.byDirector.map((d) => ({ fullName: d.fullName, declaredPence: d.totalDeclaredPence, paidPence: d.totalPaidPence })),
            dividendsAfterYearEnd: pack.dividends.afterYearEnd.declared,
            yearEnd: pack.yearEnd,
            profit: pack.profitCheck,
          });
          writeFileResult(pdfFile('year-end', bytes), flags.pdf, force);
        }
        const toStdout = flags.pdf === '-' || flags.jsonFile === '-';
        if (!toStdout) process.stdout.write(globals.json ? `${JSON.stringify(pack, null, 2)}\n` : printed(pack, tableWidth(globals.wide)));
      });
    });
}
