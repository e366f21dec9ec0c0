/**
 * A small pool of worker threads for CPU-heavy work (rendering PDFs), so
 * that the event loop stays free to answer every other request. Bounded
 * three ways: at most `size` workers; at most `perKey` tasks of one key (an
 * organisation) running at once, so that one key cannot take every worker;
 * and at most `queueLimit` tasks waiting in all (`queuePerKey` of one key),
 * beyond which a task is refused at once with 503 server_busy and a
 * Retry-After worked out from how long tasks take. Waiting tasks start
 * round-robin across keys, so a key that queued twenty waits behind no one's
 * twenty.
 *
 * Hand-written (piscina and workerpool have no per-key concurrency): a
 * worker runs one task at a time; one that fails, exits or overruns
 * `timeoutMs` is stopped and replaced when next needed.
 */
import type { Worker } from 'node:worker_threads';
import { AppError } from './engine/errors.js';

export interface PoolLimits {
  readonly size: number;
  readonly perKey: number;
  readonly queueLimit: number;
  readonly queuePerKey: number;
  readonly timeoutMs: number;
}

/** What a worker posts back for each task it is given. */
export type WorkerReply<O> = { readonly ok: true; readonly value: O } | { readonly ok: false; readonly message: string };

/** 503 server_busy, with the seconds to wait (sent as Retry-After). */
export class ServerBusy extends AppError {
  constructor(
    message: string,
    override readonly retryAfter: number,
  ) {
    super('server_busy', message);
  }
}

interface Task<I, O> {
  readonly key: string;
  readonly input: I;
  readonly resolve: (value: O) => void;
  readonly reject: (error: unknown) => void;
}

interface Busy<I, O> {
  readonly task: Task<I, O>;
  readonly started: number;
  readonly timer: NodeJS.Timeout;
}

export class WorkerPool<I, O> {
  readonly #spawn: () => Worker;
  readonly #limits: PoolLimits;
  readonly #idle: Worker[] = [];
  /** Every live worker, and the task it runs (null: idle). */
  readonly #workers = new Map<Worker, Busy<I, O> | null>();
  /** Waiting tasks by key; a key moves to the back when one of its tasks starts. */
  readonly #waiting = new Map<string, Task<I, O>[]>();
  #waitingCount = 0;
  readonly #running = new Map<string, number>();
  /** How long a task takes, smoothed: for Retry-After. */
  #meanMs = 1000;
  #closed = false;

  constructor(spawn: () => Worker, limits: PoolLimits) {
    this.#spawn = spawn;
    this.#limits = limits;
  }

  /** Run `input` on a worker, counted against `key`; refused at once (503) when the queue is full. */
  run(key: string, input: I): Promise<O> {
    if (this.#closed) return Promise.reject(new AppError('service_unavailable', 'the server is shutting down'));
    const queued = this.#waiting.get(key);
    if (!this.#canStart(key)) {
      const { queueLimit, queuePerKey } = this.#limits;
      if (this.#waitingCount >= queueLimit || (queued?.length ?? 0) >= queuePerKey) {
        const retryAfter = this.#retryAfter();
        const whose = this.#waitingCount >= queueLimit ? 'the server' : 'this organisation';
        return Promise.reject(
          new ServerBusy(
            `every document renderer is busy and ${whose} has ${Math.min(this.#waitingCount, queueLimit)} waiting; retry in ${retryAfter} s`,
            retryAfter,
          ),
        );
      }
    }
    return new Promise<O>((resolve, reject) => {
      const task = { key, input, resolve, reject };
      if (queued) queued.push(task);
      else this.#waiting.set(key, [task]);
      this.#waitingCount++;
      this.#pump();
    });
  }

  /** Tasks running and waiting, for tests and diagnostics. */
  get load(): { readonly workers: number; readonly running: number; readonly waiting: number } {
    const running = [...this.#workers.values()].filter((b) => b !== null).length;
    return { workers: this.#workers.size, running, waiting: this.#waitingCount };
  }

  /** Refuse what waits, stop every worker (what runs fails), and accept no more. */
  async close(): Promise<void> {
    this.#closed = true;
    const shutdown = () => new AppError('service_unavailable', 'the server is shutting down');
    for (const queue of this.#waiting.values()) for (const task of queue) task.reject(shutdown());
    this.#waiting.clear();
    this.#waitingCount = 0;
    const workers = [...this.#workers.keys()];
    for (const worker of workers) this.#discard(worker, shutdown());
    await Promise.all(workers.map((w) => w.terminate()));
  }

  #hasRoom(): boolean {
    return this.#idle.length > 0 || this.#workers.size < this.#limits.size;
  }

  #canStart(key: string): boolean {
    return this.#hasRoom() && (this.#running.get(key) ?? 0) < this.#limits.perKey;
  }

  #retryAfter(): number {
    const rounds = this.#waitingCount / this.#limits.size + 1;
    return Math.max(1, Math.ceil((rounds * this.#meanMs) / 1000));
  }

  #pump(): void {
    while (this.#waitingCount > 0 && this.#hasRoom()) {
      const key = [...this.#waiting.keys()].find((k) => (this.#running.get(k) ?? 0) < this.#limits.perKey);
      if (key === undefined) return;
      const queue = this.#waiting.get(key) as Task<I, O>[];
      const task = queue.shift() as Task<I, O>;
      this.#waiting.delete(key);
      if (queue.length > 0) this.#waiting.set(key, queue);
      this.#waitingCount--;
      this.#start(task);
    }
  }

  #start(task: Task<I, O>): void {
    const worker = this.#idle.pop() ?? this.#newWorker();
    this.#running.set(task.key, (this.#running.get(task.key) ?? 0) + 1);
    const timer = setTimeout(() => {
      const seconds = Math.round(this.#limits.timeoutMs / 1000);
      this.#discard(worker, new AppError('service_unavailable', `rendering took longer than ${seconds} s and was stopped; retry later`));
      void worker.terminate();
    }, this.#limits.timeoutMs);
    this.#workers.set(worker, { task, started: performance.now(), timer });
    worker.postMessage(task.input);
  }

  #newWorker(): Worker {
    const worker = this.#spawn();
    // An idle worker does not keep the process alive; the server does while it listens.
    worker.unref();
    this.#workers.set(worker, null);
    worker.on('message', (reply: WorkerReply<O>) => this.#finish(worker, reply));
    worker.on('error', (e) => this.#discard(worker, e));
    worker.on('exit', (code) => this.#discard(worker, new Error(`a document renderer exited (code ${code})`)));
    return worker;
  }

  /** The task a worker ran ends; null when the worker was not running one. */
  #settle(worker: Worker): Task<I, O> | null {
    const busy = this.#workers.get(worker);
    if (!busy) return null;
    clearTimeout(busy.timer);
    this.#workers.set(worker, null);
    const left = (this.#running.get(busy.task.key) ?? 1) - 1;
    if (left === 0) this.#running.delete(busy.task.key);
    else this.#running.set(busy.task.key, left);
    this.#meanMs = 0.8 * this.#meanMs + 0.2 * (performance.now() - busy.started);
    return busy.task;
  }

  #finish(worker: Worker, reply: WorkerReply<O>): void {
    // A worker already given up on (it overran) may still answer: it is being stopped.
    if (!this.#workers.has(worker)) return;
    const task = this.#settle(worker);
    if (task) {
      if (reply.ok) task.resolve(reply.value);
      else task.reject(new Error(reply.message));
    }
    this.#idle.push(worker);
    this.#pump();
  }

  /** Forget a worker that failed, exited or overran; its task (if any) fails with `error`. */
  #discard(worker: Worker, error: unknown): void {
    if (!this.#workers.has(worker)) return;
    this.#settle(worker)?.reject(error);
    this.#workers.delete(worker);
    const idle = this.#idle.indexOf(worker);
    if (idle >= 0) this.#idle.splice(idle, 1);
    if (!this.#closed) this.#pump();
  }
}
