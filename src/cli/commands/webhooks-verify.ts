/** `acct webhooks verify`: check a received delivery's signature, as a receiver's code would. */
import fs from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { AppError } from '../../engine/errors.js';
import { verifyWebhook } from '../../engine/integration/webhook-verify.js';
import { reportError, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';

function parseSeconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of seconds');
  return Number(value);
}

interface VerifyFlags {
  readonly secret?: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly payload?: string;
  readonly tolerance: number;
}

export function addWebhooksVerify(program: Command): void {
  const doc = handWritten.webhooksVerify;
  let group = program.commands.find((c) => c.name() === 'webhooks');
  group ??= program.command('webhooks');
  group
    .command('verify')
    .description(doc.summary)
    .option('--secret <whsec>', "the endpoint's signing secret (default $ACCT_WEBHOOK_SECRET)")
    .requiredOption('--timestamp <seconds>', 'the X-Service-Timestamp header')
    .requiredOption('--signature <hex>', 'the X-Service-Signature header')
    .option('--payload <file>', 'the raw request body (default: standard input)')
    .option('--tolerance <seconds>', 'how far the timestamp may be from now (0: do not check)', parseSeconds, 300)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action((flags: VerifyFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      try {
        const secret = flags.secret ?? process.env['ACCT_WEBHOOK_SECRET'];
        if (!secret) throw new AppError('validation_error', 'give the signing secret with --secret or $ACCT_WEBHOOK_SECRET', 'secret');
        const body = fs.readFileSync(flags.payload ?? 0);
        const result = verifyWebhook({
          secret,
          timestamp: flags.timestamp,
          signature: flags.signature,
          body,
          nowSeconds: Math.floor(Date.now() / 1000),
          toleranceSeconds: flags.tolerance,
        });
        if (globals.json) process.stdout.write(`${JSON.stringify(result)}\n`);
        else process.stdout.write(`${result.valid ? 'valid' : 'invalid'}: ${result.reason}\n`);
        process.exitCode = result.valid ? 0 : 1;
      } catch (e) {
        reportError(e, globals.json === true);
      }
    });
}
