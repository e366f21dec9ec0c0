import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { orgOf } from '../../engine/operation.js';
import { postingOf } from '../../engine/ledger/posting.js';
import { importJournal } from '../../engine/imports/journal.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, groupSummaries, handWritten } from '../help.js';

/**
 * The journal file as a stream, opened and read from before anything else: a
 * missing file or a directory is bad input (as acct bank import says it), not
 * a stream's error event after the books are open.
 */
function readable(file: string): fs.ReadStream {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    // A directory opens; reading it fails with EISDIR. Reading at position 0 leaves the stream to start at the beginning.
    fs.readSync(fd, Buffer.alloc(1), 0, 1, 0);
    return fs.createReadStream(file, { fd });
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    throw new AppError('validation_error', `cannot read ${file}: ${(e as Error).message}`, 'file');
  }
}

export function addImport(program: Command): void {
  const group = program.command('import').description(groupSummaries['import'] ?? '');
  const doc = handWritten.importJournal;
  group
    .command('journal')
    .argument('<file>', 'a .jsonl file, or - for standard input')
    .option('--allow-duplicate', 'import content that an earlier import (not undone) already holds, once more')
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (file: string, flags: { allowDuplicate?: boolean }, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const ctx = await cli.ctx({ writes: true });
        const input = file === '-' ? process.stdin : readable(file);
        const lines = readline.createInterface({ input, crlfDelay: Infinity });
        // Listen for lines now: readline drops the lines it reads before an async iterator exists, and
        // importJournal reads the books before it iterates (standard input from a file came through empty).
        void lines[Symbol.asyncIterator]();
        const tty = process.stderr.isTTY === true;
        const progress = (n: number) => {
          if (tty) process.stderr.write(`\r  importing ${file}: ${n.toLocaleString('en-GB')} lines read`);
        };
        try {
          const result = await importJournal(orgOf(ctx), postingOf(ctx), lines, {
            source: file === '-' ? '-' : path.basename(file),
            allowDuplicate: flags.allowDuplicate === true,
            onProgress: progress,
          });
          if (globals.json) cli.print(result);
          else {
            process.stdout.write(
              `Imported ${result.transactions.toLocaleString('en-GB')} transactions (${result.lines.toLocaleString('en-GB')} lines) from ${file} as ${result.importId}\n` +
                `(acct import undo ${result.importId} removes them all)\n`,
            );
          }
        } finally {
          if (tty) process.stderr.write('\n');
          lines.close();
          if (input !== process.stdin) input.destroy(); // the file is closed whether or not it was read to the end
        }
      });
    });
}
