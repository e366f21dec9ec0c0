/**
 * Waiting in tests for something that happens in the background (a sweep,
 * a webhook round, the request log's next batch). A wait that ends early
 * costs nothing, so the deadline is generous: it is reached only when the
 * awaited thing is not going to happen, never because the machine is slow
 * (CI runs the suite on two shared cores beside other jobs). How fast
 * things happen is measured by the benchmarks under bench/, not here.
 */

/** The deadline of a wait for something that should happen soon: 20 s, far beyond any delay a loaded machine adds. */
export const generousMs = 20_000;

/**
 * `read()` again every `everyMs` until `done` holds of what it returns, or
 * until `ms` have passed; what it last returned, for the caller to assert
 * on (so that a wait that runs out fails on the assertion, showing the value).
 */
export async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = generousMs, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
