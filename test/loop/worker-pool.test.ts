/**
 * The worker pool (src/worker-pool.ts) on real worker threads running a
 * small script: each task names how long it takes, and the script answers
 * with the task's name once that time has passed (or crashes, if told to).
 * What is checked is the order tasks start and finish in, the queue limits,
 * the timeout and a crashing worker.
 */
import t from 'tap';
import { Worker } from 'node:worker_threads';
import { ServerBusy, WorkerPool, type PoolLimits } from '../../src/worker-pool.js';
import { AppError } from '../../src/engine/errors.js';

interface Job {
  readonly name: string;
  readonly ms: number;
  readonly crash?: boolean;
}

const script = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => {
  if (job.crash) throw new Error('crashed on ' + job.name);
  setTimeout(() => parentPort.postMessage({ ok: true, value: job.name }), job.ms);
});`;

function pool(limits: Partial<PoolLimits>): WorkerPool<Job, string> {
  return new WorkerPool<Job, string>(() => new Worker(script, { eval: true }), {
    size: 1,
    perKey: 1,
    queueLimit: 10,
    queuePerKey: 10,
    timeoutMs: 10_000,
    ...limits,
  });
}

/** Run jobs, each under its key, recording the order they finish in. */
function runAll(p: WorkerPool<Job, string>, jobs: readonly (readonly [string, Job])[], finished: string[]): Promise<unknown>[] {
  return jobs.map(([key, job]) =>
    p.run(key, job).then((name) => {
      finished.push(name);
      return name;
    }),
  );
}

t.test('one organisation cannot take every worker: with two workers and a cap of one, the other organisation runs at once', async (t) => {
  const p = pool({ size: 2, perKey: 1 });
  t.teardown(() => p.close());
  const finished: string[] = [];
  const all = runAll(
    p,
    [
      ['org-a', { name: 'a1', ms: 300 }],
      ['org-a', { name: 'a2', ms: 300 }],
      ['org-a', { name: 'a3', ms: 300 }],
      ['org-b', { name: 'b1', ms: 300 }],
    ],
    finished,
  );
  // Both workers taken at once, one of them by org-a's one slot: b1 runs now, never behind org-a's queue. (The order
  // the tasks finish in is not checked across workers: a worker that a loaded machine starts 300 ms late reorders it.)
  t.same(p.load, { workers: 2, running: 2, waiting: 2 }, 'a1 and b1 run; a2 and a3 wait for org-a’s one slot');
  await Promise.all(all);
  t.same(
    finished.filter((name) => name.startsWith('a')),
    ['a1', 'a2', 'a3'],
    'org-a’s tasks one after another, in order',
  );
  t.ok(finished.includes('b1'));
});

t.test('waiting tasks start round-robin across organisations', async (t) => {
  const p = pool({ size: 1, perKey: 1 });
  t.teardown(() => p.close());
  const finished: string[] = [];
  await Promise.all(
    runAll(
      p,
      [
        ['org-a', { name: 'a1', ms: 50 }],
        ['org-a', { name: 'a2', ms: 50 }],
        ['org-a', { name: 'a3', ms: 50 }],
        ['org-b', { name: 'b1', ms: 50 }],
        ['org-c', { name: 'c1', ms: 50 }],
      ],
      finished,
    ),
  );
  t.same(finished, ['a1', 'a2', 'b1', 'c1', 'a3'], 'after a1, one of each organisation in turn: a2 (queued first), b1, c1, then a3');
});

t.test('a full queue refuses at once with 503 server_busy and a Retry-After; the queued tasks still run', async (t) => {
  const p = pool({ size: 1, perKey: 1, queueLimit: 2, queuePerKey: 1 });
  t.teardown(() => p.close());
  const a1 = p.run('org-a', { name: 'a1', ms: 200 });
  const a2 = p.run('org-a', { name: 'a2', ms: 10 });
  const refusedForOrg = await p.run('org-a', { name: 'a3', ms: 10 }).catch((e: unknown) => e);
  t.ok(refusedForOrg instanceof ServerBusy, "org-a's share of the queue (1) is full");
  const b1 = p.run('org-b', { name: 'b1', ms: 10 });
  const refusedForAll = await p.run('org-c', { name: 'c1', ms: 10 }).catch((e: unknown) => e);
  t.ok(refusedForAll instanceof ServerBusy, 'the whole queue (2) is full');
  for (const e of [refusedForOrg, refusedForAll] as ServerBusy[]) {
    t.equal(e.code, 'server_busy');
    t.equal(e.status, 503);
    t.equal(e.exitCode, 1, 'the exit status of the other 503s');
    t.ok(Number.isInteger(e.retryAfter) && e.retryAfter >= 1, `Retry-After ${e.retryAfter} s`);
  }
  t.same(await Promise.all([a1, a2, b1]), ['a1', 'a2', 'b1']);
  t.same(p.load, { workers: 1, running: 0, waiting: 0 });
  t.equal(await p.run('org-a', { name: 'a4', ms: 10 }), 'a4', 'room again once the queue has drained');
});

t.test('a task over the time limit fails 503 and its worker is replaced', async (t) => {
  // The limit counts from the task's dispatch, a new worker's start-up included: 200 ms was not always enough for the
  // replacement to start and run a 10 ms task on a loaded machine. 3 s is; the slow task would take an hour.
  const p = pool({ size: 1, timeoutMs: 3000 });
  t.teardown(() => p.close());
  const started = Date.now();
  const slow = await p.run('org-a', { name: 'slow', ms: 3_600_000 }).catch((e: unknown) => e);
  t.ok(slow instanceof AppError && slow.code === 'service_unavailable', `stopped at the limit (after ${Date.now() - started} ms)`);
  t.equal(await p.run('org-a', { name: 'next', ms: 10 }), 'next', 'the next task runs on a new worker');
});

t.test('a worker that crashes fails its task, not the pool', async (t) => {
  const p = pool({ size: 1 });
  t.teardown(() => p.close());
  const crashed = await p.run('org-a', { name: 'boom', ms: 0, crash: true }).catch((e: unknown) => e);
  t.match(String(crashed), /crashed on boom/);
  t.equal(await p.run('org-a', { name: 'after', ms: 10 }), 'after');
});

t.test('close refuses what waits and what runs, and then everything', async (t) => {
  const p = pool({ size: 1 });
  const running = p.run('org-a', { name: 'a1', ms: 5_000 }).catch((e: unknown) => e);
  const waiting = p.run('org-b', { name: 'b1', ms: 10 }).catch((e: unknown) => e);
  await p.close();
  for (const e of await Promise.all([running, waiting])) t.ok(e instanceof AppError && e.code === 'service_unavailable', 'refused: shutting down');
  const after = await p.run('org-a', { name: 'late', ms: 10 }).catch((e: unknown) => e);
  t.ok(after instanceof AppError && after.code === 'service_unavailable');
});
