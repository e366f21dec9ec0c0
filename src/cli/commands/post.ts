import type { Command } from 'commander';
import { orgOf } from '../../engine/operation.js';
import { createTransactionOp } from '../../engine/ledger/transaction-ops.js';
import { AppError } from '../../engine/errors.js';
import { withCli, type GlobalOptions } from '../context.js';
import { dateHelp, typedDay } from '../date-flags.js';
import { examplesText, handWritten } from '../help.js';
import { nth, postArgField, postLines } from '../post-lines.js';
import { postedLine, type Posted } from '../posted-line.js';
import { printable } from '../render.js';
import { AcctOption, hiddenAlias } from '../command.js';

export function addPost(program: Command): void {
  const doc = handWritten.post;
  const reference = new AcctOption('--reference <text>', 'an external reference, up to 100 characters; e.g. PO-1234');
  program
    .command(doc.name)
    .argument('<date>', dateHelp('date'))
    .argument('<description>')
    .argument('<lines...>', 'CODE=AMOUNT in pounds, or CODE=AMOUNT@RATE[inc|ex] with VAT')
    .option('--draft', 'record it as a draft (not in reports until posted)')
    .addOption(reference)
    // The action reads flags.ref: --reference, the name shown, sets it too (and so is "given with" --ref).
    .addOption(hiddenAlias('--ref <text>', reference, { together: true }))
    .on('option:reference', function (this: Command, value: string) {
      this.setOptionValueWithSource('ref', value, 'cli');
    })
    .option('--verbose', 'print the whole transaction and its lines, not one line')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (date: string, description: string, entries: string[], flags: { draft?: boolean; ref?: string; verbose?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        // today and yesterday, and a day-first date's hint, as the generated commands' date flags have them.
        const day = await typedDay(cli, date, '<date>');
        const lines = await postLines(orgOf(await cli.ctx()).db, entries, day);
        const body = { date: day, description, reference: flags.ref, status: flags.draft ? 'draft' : 'posted', lines };
        const result = await cli.run(createTransactionOp, { params: {}, query: {}, body }).catch((e: unknown) => {
          throw linesAsTyped(e, entries);
        });
        if (globals.json === true || flags.verbose === true) cli.print(result.data, result.meta, createTransactionOp);
        else process.stdout.write(`${printable(postedLine(result.data as Posted))}\n`);
      });
    });
}

/**
 * A refusal named as the user typed it: the <date> and <description>
 * arguments, a line by its CODE=AMOUNT argument ("1st CODE=AMOUNT 5100=0",
 * lines[0]; the VAT lines the shorthand adds come after them all), and the
 * CODE=AMOUNT arguments for the API's lines as a whole.
 */
function linesAsTyped(e: unknown, entries: readonly string[]): unknown {
  if (!(e instanceof AppError)) return e;
  if (e.field === 'date' || e.field === 'description') return new AppError(e.code, e.message.replace(e.field, `<${e.field}>`), `<${e.field}>`);
  const line = /^lines\[(\d+)\](?:\.(\w+))?/.exec(e.field ?? '');
  const i = Number(line?.[1]);
  if (line && i < entries.length) {
    const what = `${nth(i)} ${entries[i] ?? ''}:${line[2] === undefined ? '' : ` the ${line[2] === 'accountId' ? 'account' : line[2]}`}`;
    return new AppError(e.code, e.message.replace(line[0], what), postArgField(i));
  }
  if (e.field !== 'lines') return e;
  const message = /at least 2 items/.test(e.message) ? 'a transaction needs at least two CODE=AMOUNT lines, a debit and a credit' : e.message;
  return new AppError(e.code, message, 'CODE=AMOUNT');
}
