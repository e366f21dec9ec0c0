/**
 * Calls to other services (SMTP now; webhooks, HMRC and the payment provider
 * later) never run inside a database write transaction: a slow or hung
 * service would hold the books' write lock, and every other write to them
 * would wait for it. Operations make such calls in their `external` step,
 * which runs before any transaction is opened. A call made inside one
 * anyway is a bug, and fails at once as an internal error.
 */
import { AppError } from './errors.js';
import { insideWriteTransaction } from '../store/store.js';

/** Refuse `what` (a call to another service) when the caller is inside a write transaction. */
export function assertOutsideTransaction(what: string): void {
  if (!insideWriteTransaction()) return;
  const bug = new Error(`${what} inside a database write transaction: make the call in the operation's external step`);
  throw new AppError('internal_error', 'unexpected failure', undefined, { cause: bug });
}

/** What of an operation's context (Ctx) the two below use; named here, as operation.ts imports this file's neighbours. */
interface Reporting {
  readonly logFailure?: ((error: AppError) => void) | undefined;
  readonly afterResponse?: ((task: () => Promise<void>) => void) | undefined;
}

/** Report a failure that must not fail the request: to the server's log, or (the CLI) standard error. */
export function logFailure(ctx: Reporting, e: unknown): void {
  const failure = e instanceof AppError ? e : new AppError('internal_error', 'unexpected failure', undefined, { cause: e });
  if (ctx.logFailure) ctx.logFailure(failure);
  else console.error(`warning: ${failure.message}`);
}

/**
 * Do `task` after the answer has gone where the adapter allows it (see
 * Ctx.afterResponse), else now; either way a failure is logged, never
 * answered. For work whose outcome or duration the caller must not learn.
 */
export async function afterAnswer(ctx: Reporting, task: () => Promise<void>): Promise<void> {
  const logged = () => task().catch((e: unknown) => logFailure(ctx, e));
  if (ctx.afterResponse) ctx.afterResponse(logged);
  else await logged();
}
