// test-order: first (20 to 30 s of both cores: twenty 200-item PDFs rendered at once)
/**
 * Issue 15, finding 1: a 200-item invoice PDF is seconds of synchronous
 * pdfmake work, and 20 of them at once kept /v1/health waiting 21 s. The PDFs
 * are now rendered on worker threads (src/http/pdf-workers.ts), so the event
 * loop keeps answering while they render; a full queue answers 503
 * server_busy with Retry-After; one organisation cannot take every worker.
 */
import t from 'tap';
import type { Test } from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { newBooks, serveBooks, apiAt, type Api, type Books } from '../helpers/index.js';
import { contactOk, expectError } from '../ledger-http/support.js';
import { pdfText } from '../sales-cli/support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { invoicePdfOp } from '../../src/engine/sales/invoice-ops.js';

/** A draft invoice of 200 lines: line n is n × £1.00 at the standard rate. */
async function bigInvoice(t: Test, api: Api): Promise<string> {
  const contactId = await contactOk(t, api);
  const items = Array.from({ length: 200 }, (_, i) => ({ description: `Widget model ${i + 1}`, quantity: i + 1, unitPrice: 100, vatRate: 'standard' }));
  const r = await api.request('POST', '/v1/invoices', { body: { contactId, items, issueDate: '2026-11-21', dueDays: 30 } });
  t.equal(r.status, 201, `invoice created: ${JSON.stringify(r.body?.error ?? '')}`);
  // Net 1 + 2 + … + 200 = 200 × 201 / 2 = 20,100 × £1.00 = £20,100.00; VAT 20% = £4,020.00; total £24,120.00.
  t.equal(r.body.data.total, 2412000);
  return r.body.data.id as string;
}

/** The median of some numbers. */
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

t.test('20 PDFs of a 200-item invoice at once: /v1/health answers in a small part of a render, and the PDFs read as rendered in-process', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  // Two renderers, both open to the one organisation, and room for all 20: both cores busy rendering the whole time.
  const renderers = 2;
  const api = await serveBooks(t, books, { pdfWorkers: { size: renderers, perKey: 2, queueLimit: 20, queuePerKey: 20 } });
  const id = await bigInvoice(t, api);

  let flooding = true;
  const started = performance.now();
  const flood = Promise.all(Array.from({ length: 20 }, () => api.request('GET', `/v1/invoices/${id}/pdf`))).finally(() => (flooding = false));
  const latencies: number[] = [];
  // Health checks one after another for as long as the flood lasts, each timed from request to parsed reply.
  await sleep(100);
  while (flooding) {
    const before = performance.now();
    const health = await api.request('GET', '/v1/health', { key: null });
    latencies.push(performance.now() - before);
    t.equal(health.status, 200);
    await sleep(20);
  }
  const pdfs = await flood;
  const took = performance.now() - started;
  const sorted = [...latencies].sort((a, b) => a - b);
  t.comment(
    `flood ${Math.round(took)} ms; ${latencies.length} health checks: median ${median(latencies).toFixed(1)} ms, ` +
      `90th ${sorted[Math.floor(sorted.length * 0.9)]?.toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms`,
  );
  t.ok(latencies.length >= 10, `${latencies.length} health checks made while the PDFs rendered`);
  // The bounds are in terms of this run's renders, timed under the same load as the checks, not in milliseconds: a
  // loaded machine slows both alike (with other suites and three busy loops on the two cores, a render took 2.3 s,
  // the median check 2.3 ms and the slowest 470 ms). Rendered on the event loop (the issue), a check waits for the
  // render under way: with pdfWorkers 'none' here the median was 610 ms against a bound of 86 ms; in the issue the
  // loop was held for the whole flood (21 s).
  const renderMs = (took * renderers) / 20;
  // The median, not every check: on two shared cores a check can lose its core to the renderers or to another test file now and then.
  t.ok(
    median(latencies) < renderMs / 10,
    `median health latency ${median(latencies).toFixed(1)} ms, under a tenth of a render (${Math.round(renderMs)} ms in this run)`,
  );
  const slowest = sorted[sorted.length - 1] ?? 0;
  t.ok(slowest < took / 2, `and none waited for the flood, as in the issue (slowest ${Math.round(slowest)} ms, the flood ${Math.round(took)} ms)`);

  t.same(
    pdfs.map((p) => p.status),
    Array.from({ length: 20 }, () => 200),
    'every PDF rendered',
  );
  // Rendered in this thread, as the CLI does (a context without a renderer).
  const local = await invoicePdfOp.run(books.ctx(), { id });
  const expected = pdfText(local.file?.bytes ?? new Uint8Array());
  t.match(expected, /Widget model 200/);
  t.match(expected, /£24,120\.00/);
  for (const [i, pdf] of pdfs.entries()) {
    if (pdfText(pdf.bytes) !== expected) t.fail(`PDF ${i + 1} reads differently from the in-process rendering`);
  }
  t.equal(pdfs[0]?.bytes.byteLength, local.file?.bytes.byteLength, 'the same size as the in-process rendering');
});

t.test('a full queue: 503 server_busy with Retry-After; what was queued still renders', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const api = await serveBooks(t, books, { pdfWorkers: { size: 1, perKey: 1, queueLimit: 1, queuePerKey: 1 } });
  const id = await bigInvoice(t, api);
  const replies = await Promise.all(Array.from({ length: 5 }, () => api.request('GET', `/v1/invoices/${id}/pdf`)));
  const ok = replies.filter((r) => r.status === 200);
  const busy = replies.filter((r) => r.status !== 200);
  // One renders, one waits; the other three arrive while both places are taken (a render takes a few hundred ms).
  t.ok(ok.length >= 2, `${ok.length} rendered: the one running and the one queued`);
  t.ok(busy.length >= 1, `${busy.length} refused`);
  for (const r of busy) {
    expectError(t, r, 503, 'server_busy');
    const retryAfter = r.headers.get('retry-after');
    t.match(retryAfter, /^[1-9]\d*$/, `Retry-After: ${retryAfter} (whole seconds)`);
  }
  for (const r of ok) t.equal(r.headers.get('content-type'), 'application/pdf');
  const again = await api.request('GET', `/v1/invoices/${id}/pdf`);
  t.equal(again.status, 200, 'once the queue has drained, a PDF renders again');
});

t.test('one organisation flooding its share of the renderers does not hold up another', async (t) => {
  const books: Books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const api = await serveBooks(t, books, { pdfWorkers: { size: 2, perKey: 1, queueLimit: 8, queuePerKey: 1 } });
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  const otherApi = apiAt(api.url, other.apiKey);
  const mine = await bigInvoice(t, api);
  const theirs = await bigInvoice(t, otherApi);

  const flood = Promise.all(Array.from({ length: 4 }, () => api.request('GET', `/v1/invoices/${mine}/pdf`)));
  await sleep(50);
  const before = performance.now();
  const their = await otherApi.request('GET', `/v1/invoices/${theirs}/pdf`);
  const theirMs = performance.now() - before;
  const replies = await flood;
  t.equal(their.status, 200, 'the other organisation gets its PDF: a renderer was kept for it');
  t.comment(`the other organisation's PDF took ${Math.round(theirMs)} ms`);
  const refused = replies.filter((r) => r.status === 503);
  t.ok(refused.length >= 1, `the flooding organisation: ${refused.length} of 4 refused beyond its one running and one waiting`);
  for (const r of refused) expectError(t, r, 503, 'server_busy', { message: /this organisation/ });
});
