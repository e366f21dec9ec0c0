/**
 * The one number allocator of invoices, quotes and credit notes: prefix
 * and counter from the settings, padded to four digits and never cut, the
 * counter bumped. (A counter set back onto numbers already used skips
 * them: test/sales-http/document-numbers.test.ts; the parallel case is
 * test/concurrency/invoice-numbers.test.ts.)
 */
import t from 'tap';
import { newBooks } from '../helpers/index.js';
import { operations } from '../../src/engine/registry.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Ctx } from '../../src/engine/operation.js';

type Data = Record<string, unknown>;

async function call(ctx: Ctx, name: string, body?: unknown, params: Record<string, string> = {}): Promise<Data> {
  const op = operations.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return (await op.run(ctx, parseOperationInput(op, { params, query: {}, body }))).data as Data;
}

const item = { description: 'Consulting', quantity: 1, unitPrice: 10000, vatRate: 'standard' };

t.test('invoices, quotes and credit notes are numbered from their own prefix and counter', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const ctx = books.ctx();
  const contact = await call(ctx, 'contacts.create', { contactType: 'customer', name: 'Bright Ltd' });
  await call(ctx, 'settings.update', {
    invoicePrefix: 'F-',
    invoiceNextNumber: 9999,
    quotePrefix: 'Q',
    quoteNextNumber: 7,
    creditNotePrefix: 'CR/',
    creditNoteNextNumber: 12,
  });

  const first = await call(ctx, 'invoices.create', { contactId: contact['id'], items: [item] });
  t.equal(first['invoiceNumber'], 'F-9999');
  // Past four digits the number grows: padStart pads, it never cuts.
  t.equal((await call(ctx, 'invoices.create', { contactId: contact['id'], items: [item] }))['invoiceNumber'], 'F-10000');
  t.equal((await call(ctx, 'quotes.create', { contactId: contact['id'], items: [item] }))['quoteNumber'], 'Q0007');
  await call(ctx, 'invoices.send', {}, { id: first['id'] as string });
  t.equal((await call(ctx, 'credit-notes.create', { invoiceId: first['id'] }))['creditNoteNumber'], 'CR/0012');

  t.match(
    await call(ctx, 'settings.get'),
    { invoiceNextNumber: 10001, quoteNextNumber: 8, creditNoteNextNumber: 13 },
    'each counter moved on by the numbers it gave',
  );
});
