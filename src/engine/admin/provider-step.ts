/**
 * What an administrator operation's external step got from the payment
 * provider, handed to its run: keyed by the parsed input, the one object
 * both steps are given (over HTTP, with or without an Idempotency-Key, and
 * on the CLI).
 */
import { AppError } from '../errors.js';

const fromProvider = new WeakMap<object, unknown>();

/** Keep the external step's result for the run of the same input. */
export function handOver(input: object, value: unknown): void {
  fromProvider.set(input, value);
}

/** The external step's result for this input (once): an internal error when the step did not run. */
export function taken<T>(input: object): T {
  if (!fromProvider.has(input)) throw new AppError('internal_error', 'the provider step did not run before the audit step');
  const value = fromProvider.get(input) as T;
  fromProvider.delete(input);
  return value;
}
