/**
 * The entry of a document renderer thread (src/http/pdf-workers.ts): it
 * takes what an invoice or credit note shows and answers with the PDF's
 * bytes, rendered exactly as in the calling thread (invoice.ts).
 */
import { parentPort } from 'node:worker_threads';
import { invoicePdf } from './invoice.js';
import type { InvoicePdfData } from './invoice-data.js';
import type { WorkerReply } from '../worker-pool.js';

const port = parentPort;
if (!port) throw new Error('src/pdf/worker.ts runs as a worker thread');

port.on('message', (data: InvoicePdfData) => {
  invoicePdf(data).then(
    (pdf) => {
      // A copy of its own, so the bytes move to the caller rather than being copied again (pdfmake's Buffer may share a pool).
      const bytes = new Uint8Array(pdf);
      port.postMessage({ ok: true, value: bytes } satisfies WorkerReply<Uint8Array>, [bytes.buffer]);
    },
    (e: unknown) => port.postMessage({ ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies WorkerReply<Uint8Array>),
  );
});
