/**
 * No call to HMRC inside a database write transaction: the client refuses
 * (internal_error, HMRC never reached) when its caller holds a write, and
 * a submission to an HMRC that takes its time holds no lock on the books:
 * other writes, keyed or not, go on meanwhile.
 */
import t from 'tap';
import { AppError } from '../../src/engine/errors.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Operation } from '../../src/engine/operation.js';
import { callHmrc } from '../../src/engine/vat/mtd/hmrc-client.js';
import { submitReturnOp } from '../../src/engine/vat/mtd/submit-op.js';
import { obligationsOp } from '../../src/engine/vat/mtd/mtd-ops.js';
import { expectError, rowCount, serveWith } from '../integration/support.js';
import { connect, fileReturn, mtdBooks, q1, q1Json, returnRow, settingsOf } from './support.js';

const q1Period = { start: '2026-01-01', end: '2026-03-31' };

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

t.test('a call to HMRC from inside a write transaction fails as a bug, and HMRC hears nothing', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
  const handle = m.books.store.org(m.books.organisationId, 'live');
  const calls = m.standIn.calls.length;

  // The operations run inside a write, as the old Idempotency-Key path ran them.
  const runs: [Operation, { params: Record<string, string>; query: Record<string, string> }][] = [
    [submitReturnOp, { params: { id: 'vatr_q1' }, query: {} }],
    [obligationsOp, { params: {}, query: { status: 'open' } }],
  ];
  for (const [op, raw] of runs) {
    const refused = await handle
      .write((trx) =>
        op.run(
          { ...m.ctx(), books: { ...handle, id: m.books.organisationId, mode: 'live', db: trx, write: (work) => work(trx) } },
          parseOperationInput(op, { ...raw, body: undefined }),
        ),
      )
      .then(
        () => null,
        (e: unknown) => e,
      );
    t.ok(refused instanceof AppError, op.name);
    t.equal((refused as AppError).code, 'internal_error');
    t.match(String((refused as AppError).cause), /calling HMRC inside a database write transaction/);
  }
  t.equal(m.standIn.calls.length, calls, 'HMRC was not called');
  t.same(m.standIn.posted, []);

  // The client itself, whatever calls it; the platform database counts as much as the books.
  await t.rejects(
    m.books.store.platform.write(() => callHmrc(settingsOf(m.standIn), { method: 'GET', path: '/oauth/authorize' })),
    { code: 'internal_error' },
  );
  t.equal((await returnRow(m.books, 'vatr_q1')).submitted_at, null);
});

for (const key of [undefined, 'submit-slow']) {
  t.test(`while HMRC takes its time over a submission (${key ? 'with' : 'without'} an Idempotency-Key), the books take other writes`, async (t) => {
    const arrived = gate();
    const release = gate();
    const m = await mtdBooks(t, {
      hold: () => {
        arrived.open();
        return release.promise;
      },
    });
    await connect(m);
    await fileReturn(m.books, 'vatr_q1', q1Period, q1.boxes, q1.exact);
    const api = await serveWith(t, m.books, { rateLimits: false, hmrc: settingsOf(m.standIn) });

    let settled = false;
    const submitting = api
      .request('POST', '/v1/vat/returns/vatr_q1/submit', key ? { headers: { 'Idempotency-Key': key } } : {})
      .finally(() => (settled = true));
    await within(10_000, arrived.promise, 'the return reaching HMRC');

    const contact = await within(5000, api.request('POST', '/v1/contacts', { body: { contactType: 'supplier', name: 'HMRC' } }), 'POST /v1/contacts');
    t.equal(contact.status, 201, 'a write goes through while HMRC holds the return');
    const keyed = await within(
      5000,
      api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Jo Ltd' }, headers: { 'Idempotency-Key': 'k-other' } }),
      'a keyed POST',
    );
    t.equal(keyed.status, 201, 'and one with an Idempotency-Key');
    t.equal(settled, false, 'the submission still waits for HMRC');

    release.open();
    const sent = await submitting;
    t.equal(sent.status, 200, JSON.stringify(sent.body));
    t.same(m.standIn.posted, [q1Json]);
    t.not((await returnRow(m.books, 'vatr_q1')).submitted_at, null, 'the receipt written after HMRC answered');
    t.equal(await rowCount(m.books, 'contacts'), 2);
    t.equal(await rowCount(m.books, 'idempotency_keys'), key ? 2 : 1);
    expectError(t, await api.request('POST', '/v1/vat/returns/vatr_q1/submit'), 409, 'already_submitted');
  });
}
