/**
 * `acct ledger ACCOUNT`: an account's ledger read in one pass through the
 * engine (streamAccountLedger) and printed as it is read: a table whose
 * column widths are known from the totals and the longest texts before the
 * first row, CSV, or the API's JSON shape. An account is named by its code,
 * its name or its id.
 */
import type { Command } from 'commander';
import chalk from 'chalk';
import { displayPounds, formatPounds } from '../../engine/money.js';
import { orgOf } from '../../engine/operation.js';
import { resolveReference } from '../../engine/references.js';
import { streamAccountLedger, type LedgerLine, type LedgerStream } from '../../engine/ledger/account-ledger.js';
import { AppError } from '../../engine/errors.js';
import { withCli, type GlobalOptions } from '../context.js';
import { typedRange } from '../date-flags.js';
import { examplesText, handWritten } from '../help.js';
import { padRow, printable } from '../render.js';
import { drCr } from '../balance-side.js';
import { tableWidth, textWidth, truncate } from '../fit-table.js';
import { csvField } from '../presenters/index.js';

interface Flags {
  readonly from?: string;
  readonly to?: string;
  readonly limit?: string;
  readonly csv?: boolean;
}

const money = (pence: number): string => (pence === 0 ? '' : displayPounds(pence));

/** Output in pieces of about this many characters: one write a line would cost more than the rest. */
const chunk = 1 << 16;

/** Standard output in large pieces; write() says when the reader is behind, and drain() waits for it. */
function writer(): { write(text: string): boolean; behind(): boolean; drain(): Promise<void>; end(): Promise<void> } {
  let buffered = '';
  let behind = false;
  const flush = (): void => {
    if (buffered !== '' && !process.stdout.write(buffered)) behind = true;
    buffered = '';
  };
  const drain = async (): Promise<void> => {
    if (!behind) return;
    await new Promise((resolve) => process.stdout.once('drain', resolve));
    behind = false;
  };
  return {
    write(text) {
      buffered += text;
      if (buffered.length >= chunk) flush();
      return behind;
    },
    behind: () => behind,
    drain,
    async end() {
      flush();
      await drain();
    },
  };
}

export function addLedger(program: Command): void {
  const doc = handWritten.ledger;
  program
    .command(doc.name)
    .argument('<account>', 'the account code (1200), name or id')
    .option('--from <date>', 'first date: YYYY-MM-DD or a period (2026-11, 2026-Q3, fy2025, this-month…)')
    .option('--to <date>', 'last date, as --from takes; a period gives its last day')
    .option('--limit <n>', 'print the first N lines only (the balances and totals still cover the whole range)')
    .option('--csv', 'print CSV (amounts in pounds): date, description, reference, debit, credit, balance')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (named: string, flags: Flags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const limit = flags.limit === undefined ? undefined : Number(flags.limit);
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new AppError('validation_error', '--limit takes a whole number', '--limit');
        const db = orgOf(await cli.ctx()).db;
        const accountId = await resolveReference(db, 'acc', named, '<account>');
        // As acct export reads its range: this command calls the engine itself, so no operation schema checks what expandDates leaves.
        const range = { accountId, ...(await typedRange(cli, flags.from, flags.to)), limit };
        const out = writer();
        if (globals.json) await printJson(await streamAccountLedger(db, { ...range, ids: true }), out);
        else if (flags.csv) await printCsv(await streamAccountLedger(db, { ...range, ids: false }), out);
        else await printTable(await streamAccountLedger(db, { ...range, ids: false, layout: true }), out, tableWidth(globals.wide));
        await out.end();
      });
    });
}

async function printJson(ledger: LedgerStream, out: ReturnType<typeof writer>): Promise<void> {
  const { account, period, openingBalance } = ledger.head;
  out.write(`{"account":${JSON.stringify(account)},"period":${JSON.stringify(period)},"openingBalance":${openingBalance},"entries":[`);
  let first = true;
  for await (const chunk of ledger.entries) {
    for (const e of chunk) {
      out.write(`${first ? '\n' : ',\n'}${JSON.stringify(e)}`);
      first = false;
    }
    if (out.behind()) await out.drain();
  }
  const { totalDebit, totalCredit, closingBalance } = await ledger.totals();
  out.write(`\n],"totalDebit":${totalDebit},"totalCredit":${totalCredit},"closingBalance":${closingBalance}}\n`);
}

async function printCsv(ledger: LedgerStream<LedgerLine>, out: ReturnType<typeof writer>): Promise<void> {
  out.write('date,description,reference,debit,credit,balance\n');
  out.write(`${ledger.head.period.from ?? ''},Opening balance,,,,${formatPounds(ledger.head.openingBalance)}\n`);
  for await (const chunk of ledger.entries) {
    let text = '';
    for (const e of chunk) {
      text += `${e.date},${csvField(e.description)},${csvField(e.reference ?? '')},${e.debit === 0 ? '' : formatPounds(e.debit)},${e.credit === 0 ? '' : formatPounds(e.credit)},${formatPounds(e.runningBalance)}\n`;
    }
    if (out.write(text)) await out.drain();
  }
}

/**
 * The table, its columns sized before the first row. Balances print as
 * accountants print them, without a sign and with their side (Dr or Cr):
 * revenue reads 750.00 Cr, not -750.00. On a terminal narrower than the
 * table the description is cut (to 16 columns), then the reference, then
 * the reference column goes and the description is cut to 8; the date and
 * the amounts stay whole. --wide and piped output keep every column whole.
 */
async function printTable(ledger: LedgerStream<LedgerLine>, out: ReturnType<typeof writer>, limit: number | undefined): Promise<void> {
  const { head } = ledger;
  const layout = ledger.layout;
  if (layout === null) throw new Error('acct ledger: a table is laid out before its rows, so it streams with layout');
  const [opening, closing] = ['Opening balance', 'Closing balance'];
  // Every debit is at most the total, every credit too; a running balance lies between opening − credits and opening + debits.
  const balanceWidth = Math.max(
    displayPounds(Math.abs(head.openingBalance + layout.totalDebit)).length,
    displayPounds(Math.abs(head.openingBalance - layout.totalCredit)).length,
    displayPounds(Math.abs(head.openingBalance)).length,
  );
  const widths = [
    Math.max('date'.length, head.period.from || head.period.to || layout.count > 0 ? 10 : 0),
    Math.max('description'.length, opening.length, layout.longestDescription),
    Math.max('reference'.length, layout.longestReference),
    Math.max('debit'.length, displayPounds(layout.totalDebit).length),
    Math.max('credit'.length, displayPounds(layout.totalCredit).length),
    Math.max('balance'.length, balanceWidth),
    'Dr/Cr'.length,
  ];
  // Two spaces between columns; padRow writes no spaces after the last. Narrowed, the description gives way to 16
  // columns, then the reference to its heading's width, then the reference column goes, then the description to 8.
  const width = (ws: readonly number[]): number => ws.reduce((a, w) => a + w + 2, 0) - 2;
  let over = limit === undefined ? 0 : width(widths) - limit;
  const give = (column: number, least: number): void => {
    const cut = Math.min(Math.max(over, 0), Math.max(0, widths[column]! - least));
    widths[column]! -= cut;
    over -= cut;
  };
  give(1, 16);
  give(2, 'reference'.length);
  const withReference = over <= 0;
  if (!withReference) over -= widths[2]! + 2;
  give(1, 8);
  const [describe, refer] = [widths[1]!, widths[2]!];
  const fit = (text: string, width: number): string => (textWidth(text) > width ? truncate(text, width) : text);
  // Without the reference, its column (the third) is left out of every row.
  const shown = <T>(row: readonly T[]): readonly T[] => (withReference ? row : row.filter((_, i) => i !== 2));
  const columns = shown(widths);
  const right = new Set(withReference ? [3, 4, 5] : [2, 3, 4]);
  const balance = (pence: number): [string, string] => {
    const { amount, side } = drCr(pence);
    return [displayPounds(amount), side];
  };
  const row = (cells: readonly string[]): string => padRow(shown(cells), columns, right);
  out.write(`${chalk.bold(printable(`${head.account.code} ${head.account.name}`))}\n`);
  out.write(row(['date', 'description', 'reference', 'debit', 'credit', 'balance', 'Dr/Cr'].map((c, i) => chalk.bold(fit(c, widths[i]!)))));
  out.write(row([head.period.from ?? '', fit(opening, describe), '', '', '', ...balance(head.openingBalance)]));
  for await (const chunk of ledger.entries) {
    let text = '';
    for (const e of chunk)
      text += row([
        e.date,
        fit(printable(e.description), describe),
        fit(printable(e.reference ?? ''), refer),
        money(e.debit),
        money(e.credit),
        ...balance(e.runningBalance),
      ]);
    if (out.write(text)) await out.drain();
  }
  out.write(
    row([
      head.period.to ?? '',
      fit(closing, describe),
      '',
      displayPounds(layout.totalDebit),
      displayPounds(layout.totalCredit),
      ...balance(layout.closingBalance),
    ]),
  );
}
