/** `acct admin create-user`: a user of the organisation (an administrator with --admin), the bootstrap of logins to the API. */
import type { Command } from 'commander';
import { z } from 'zod';
import { AppError } from '../../engine/errors.js';
import { hashPassword } from '../../engine/users/password.js';
import { insertUser, userView } from '../../engine/users/users.js';
import { userIdOut } from '../../engine/ids.js';
import { password } from '../../engine/users/login-ops.js';
import { operatorPrincipal, withCli, type GlobalOptions } from '../context.js';
import { appendAudit } from '../../engine/admin/audit.js';
import { examplesText, groupSummaries, handWritten } from '../help.js';

interface CreateUserFlags {
  readonly email: string;
  readonly password: string;
  readonly fullName?: string;
  readonly admin?: boolean;
}

const flagsSchema = z.object({ email: z.email().max(320), password: password(), fullName: z.string().trim().min(1).max(255).optional() });

export function addAdmin(program: Command): void {
  const doc = handWritten.adminCreateUser;
  let group = program.commands.find((c) => c.name() === 'admin');
  group ??= program.command('admin').description(groupSummaries['admin'] ?? '');
  group
    .command('create-user')
    .description(doc.summary)
    .requiredOption('--email <email>', 'the address the user logs in with')
    .requiredOption('--password <password>', 'at least 8 characters')
    .option('--full-name <name>', 'default: the part of the address before the @')
    .option('--admin', 'an administrator of the platform')
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: CreateUserFlags, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const parsed = flagsSchema.safeParse(flags);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new AppError(
            'validation_error',
            `--${String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${issue.message}`,
            String(issue.path[0]),
          );
        }
        const ctx = await cli.ctx({ writes: true });
        const organisationId = ctx.principal!.organisationId;
        const passwordHash = await hashPassword(parsed.data.password);
        // The operator's act, audited as any administrator's change is, in the transaction that makes the user.
        const operator = {
          ...ctx,
          principal: operatorPrincipal(),
          request: { method: 'POST', path: 'acct admin create-user', ipAddress: null, userAgent: 'acct CLI' },
        };
        const user = await cli.store.platform.write(async (trx) => {
          const made = await insertUser(trx, cli.clock, {
            organisationId,
            email: parsed.data.email,
            fullName: parsed.data.fullName ?? parsed.data.email.split('@')[0]!,
            passwordHash,
            isAdmin: flags.admin === true,
          });
          await appendAudit(trx, operator, {
            action: 'USER_CREATED',
            entityType: 'user',
            entityId: made.id,
            details: { email: made.email, organisationId, role: made.is_admin === 1 ? 'admin' : 'user' },
          });
          return made;
        });
        if (globals.json) cli.print(userView(user));
        else
          process.stdout.write(
            `Created ${user.is_admin === 1 ? 'administrator' : 'user'} ${user.email} (id ${userIdOut(user.id)}) of organisation ${organisationId}\n`,
          );
      });
    });
}
