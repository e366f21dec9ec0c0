import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { parsePounds } from '../../engine/money.js';
import { orgOf } from '../../engine/operation.js';
import { findAccountByCode } from '../../engine/ledger/accounts.js';
import { createTransactionOp } from '../../engine/ledger/transaction-ops.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';

const entry = /^([^=\s]+)=(.+)$/;

export function addPost(program: Command): void {
  const doc = handWritten.post;
  program
    .command(doc.name)
    .argument('<date>', 'YYYY-MM-DD')
    .argument('<description>')
    .argument('<lines...>', 'CODE=AMOUNT in pounds')
    .option('--draft', 'record it as a draft (not in reports until posted)')
    .option('--ref <reference>', 'an external reference')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (date: string, description: string, entries: string[], flags: { draft?: boolean; ref?: string }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const db = orgOf(await cli.ctx()).db;
        const lines = [];
        for (const [i, text] of entries.entries()) {
          const m = entry.exec(text);
          if (!m) throw new AppError('validation_error', `lines[${i}]: expected CODE=AMOUNT, such as 5100=120.00, not ${text}`, `lines[${i}]`);
          const account = await findAccountByCode(db, m[1] as string).catch(() => {
            throw new AppError('validation_error', `lines[${i}]: no account with code ${m[1]}`, `lines[${i}].accountId`);
          });
          lines.push({ accountId: account.id, amount: parsePounds(m[2] as string, `lines[${i}].amount`) });
        }
        const body = { date, description, reference: flags.ref, status: flags.draft ? 'draft' : 'posted', lines };
        const result = await cli.run(createTransactionOp, { params: {}, query: {}, body });
        cli.print(result.data, result.meta, createTransactionOp);
      });
    });
}
