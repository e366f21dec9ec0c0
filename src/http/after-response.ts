/**
 * Work an operation leaves for after its response (Ctx.afterResponse): each
 * task starts once the response has gone (or its client has), and is kept
 * track of, so that closing the server, and the tests, can wait for it.
 */
import type { ServerResponse } from 'node:http';
import type { AppError } from '../engine/errors.js';
import { appErrorOf } from '../store/driver-errors.js';

export class AfterResponse {
  readonly #pending = new Set<Promise<void>>();

  /** Start `task` when `res` has closed: sent, or its client gone; a failure it lets through goes to `logError`. */
  add(res: ServerResponse, task: () => Promise<void>, logError: (error: AppError) => void): void {
    const sent = res.closed ? Promise.resolve() : new Promise<void>((resolve) => res.once('close', () => resolve()));
    const running: Promise<void> = sent
      .then(task)
      .catch((e: unknown) => logError(appErrorOf(e)))
      .finally(() => this.#pending.delete(running));
    this.#pending.add(running);
  }

  /** Once every task added, and every task those add, has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
