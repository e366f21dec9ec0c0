/**
 * The document renderers of acct serve: a WorkerPool whose threads run
 * src/pdf/worker.ts, keyed by organisation. The CLI renders in its own
 * thread instead (one command, one document: nothing else waits on it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { projectFile } from '../paths.js';
import { WorkerPool, type PoolLimits } from '../worker-pool.js';
import type { InvoicePdfData } from '../pdf/invoice-data.js';

export type PdfPool = WorkerPool<InvoicePdfData, Uint8Array>;

/**
 * Two to four threads (one core left to the event loop); one organisation
 * runs on all but one of them; 32 documents wait in all, 8 of one
 * organisation; a document taking over a minute is abandoned.
 */
export function defaultPdfLimits(): PoolLimits {
  const size = Math.min(4, Math.max(2, os.availableParallelism() - 1));
  return { size, perKey: size - 1, queueLimit: 32, queuePerKey: 8, timeoutMs: 60_000 };
}

export function pdfPool(limits: Partial<PoolLimits> = {}): PdfPool {
  return new WorkerPool(spawnPdfWorker, { ...defaultPdfLimits(), ...limits });
}

/**
 * A renderer thread. Built (dist/, the bundled CLI, the bundled test suite)
 * it runs the bundle dist/pdf-worker.cjs that `npm run build` makes beside
 * dist/acct.cjs. From source (tsx) it runs src/pdf/worker.ts, registering
 * tsx itself: tsx's loader registers on the main thread only.
 */
function spawnPdfWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(projectFile('dist/pdf-worker.cjs'));
  const boot = `import { register } from ${JSON.stringify(tsxEsmApi())}; register(); await import(${JSON.stringify(projectFile('src/pdf/worker.ts').href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`));
}

/** The URL of tsx's ESM API (its package.json's `./esm/api` import entry). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  const entry = exports['./esm/api']?.import?.default;
  if (entry === undefined) throw new Error(`${manifest} has no ./esm/api import entry`);
  return pathToFileURL(path.join(path.dirname(manifest), entry)).href;
}
