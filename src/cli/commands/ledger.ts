import type { Command } from 'commander';
import chalk from 'chalk';
import { displayPounds } from '../../engine/money.js';
import { orgOf } from '../../engine/operation.js';
import { findAccountByCode } from '../../engine/ledger/accounts.js';
import { accountLedgerOp } from '../../engine/ledger/transaction-ops.js';
import type { AccountLedger } from '../../engine/ledger/account-ledger.js';
import type { PageMeta } from '../../engine/pagination.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';
import { renderRows } from '../render.js';

const money = (pence: number): string => (pence === 0 ? '' : displayPounds(pence));
/** The amount columns, already in pounds: right-aligned as money. */
const moneyColumns = (column: string): boolean => column === 'debit' || column === 'credit' || column === 'balance';

export function addLedger(program: Command): void {
  const doc = handWritten.ledger;
  program
    .command(doc.name)
    .argument('<code>', 'account code')
    .option('--from <date>', 'first date, YYYY-MM-DD')
    .option('--to <date>', 'last date, YYYY-MM-DD')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (code: string, flags: { from?: string; to?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const account = await findAccountByCode(orgOf(await cli.ctx()).db, code);
        const query = { ...(flags.from ? { from: flags.from } : {}), ...(flags.to ? { to: flags.to } : {}), limit: '100' };
        let ledger: AccountLedger | undefined;
        for (let page = 1; ; page++) {
          const result = await cli.run(accountLedgerOp, { params: { accountId: account.id }, query: { ...query, page: String(page) }, body: undefined });
          const data = result.data as AccountLedger;
          if (ledger) ledger.entries.push(...data.entries);
          else ledger = data;
          if (!(result.meta as PageMeta).hasMore) break;
        }
        if (!ledger) return;
        if (globals.json) {
          cli.print(ledger, undefined, accountLedgerOp);
          return;
        }
        process.stdout.write(`${chalk.bold(`${ledger.account.code} ${ledger.account.name}`)}\n`);
        process.stdout.write(
          renderRows(
            [
              { date: flags.from ?? '', description: 'Opening balance', reference: '', debit: '', credit: '', balance: displayPounds(ledger.openingBalance) },
              ...ledger.entries.map((e) => ({
                date: e.date,
                description: e.description,
                reference: e.reference ?? '',
                debit: money(e.debit),
                credit: money(e.credit),
                balance: displayPounds(e.runningBalance),
              })),
              {
                date: flags.to ?? '',
                description: 'Closing balance',
                reference: '',
                debit: displayPounds(ledger.totalDebit),
                credit: displayPounds(ledger.totalCredit),
                balance: displayPounds(ledger.closingBalance),
              },
            ],
            moneyColumns,
          ),
        );
      });
    });
}
