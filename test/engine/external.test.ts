/**
 * No call to another service inside a write transaction: sendMail refuses
 * (internal_error, the mailer never called) when its caller runs inside a
 * write of any books, and not when another request's write merely happens
 * to be open at the same moment.
 */
import t from 'tap';
import { newBooks } from '../helpers/index.js';
import { AppError } from '../../src/engine/errors.js';
import { sendMail, type MailMessage, type Mailer } from '../../src/engine/mail.js';
import { assertOutsideTransaction } from '../../src/engine/external.js';
import { createInvoice, getInvoice, sendInvoice } from '../../src/engine/sales/invoice-ops.js';
import { createContact } from '../../src/engine/sales/contact-ops.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Ctx, Operation } from '../../src/engine/operation.js';
import { insideWriteTransaction } from '../../src/store/store.js';

const message: MailMessage = { to: 'jo@client.test', fromName: 'Acme Widgets Ltd', subject: 'Hello', text: 'Hello', attachments: [] };

function recordingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (m) => void sent.push(m) };
}

t.test('sendMail outside a transaction sends', async (t) => {
  const mailer = recordingMailer();
  t.equal(insideWriteTransaction(), false);
  await sendMail(mailer, message);
  t.equal(mailer.sent.length, 1);
});

t.test('sendMail inside a write transaction fails as an internal error and sends nothing', async (t) => {
  const books = await newBooks(t);
  const mailer = recordingMailer();
  const handle = books.store.org(books.organisationId, 'live');
  const refused = await handle
    .write(async () => {
      t.equal(insideWriteTransaction(), true, 'the write marks its work');
      await Promise.resolve(); // still inside after an await
      await sendMail(mailer, message);
    })
    .then(
      () => null,
      (e: unknown) => e,
    );
  t.ok(refused instanceof AppError, 'refused with an AppError');
  t.equal((refused as AppError).code, 'internal_error');
  t.match(String((refused as AppError).cause), /sending e-mail inside a database write transaction/);
  t.equal(mailer.sent.length, 0, 'the mailer was not called');
  t.equal(insideWriteTransaction(), false, 'outside again after the write');

  // The platform database counts as much as the books.
  await t.rejects(
    books.store.platform.write(async () => assertOutsideTransaction('calling HMRC')),
    { code: 'internal_error' },
  );
});

t.test("another write open at the same time is not the caller's: sendMail goes ahead", async (t) => {
  const books = await newBooks(t);
  const mailer = recordingMailer();
  const handle = books.store.org(books.organisationId, 'live');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let opened!: () => void;
  const isOpen = new Promise<void>((resolve) => (opened = resolve));
  const holding = handle.write(async () => {
    opened();
    await gate;
  });
  await isOpen;
  await sendMail(mailer, message);
  t.equal(mailer.sent.length, 1, 'sent while the other write is open');
  release();
  await holding;
});

t.test('invoices.send with sendEmail run inside a write (the old Idempotency-Key shape) is refused before any e-mail', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z' });
  const mailer = recordingMailer();
  const ctx = { ...books.ctx(), mailer };
  const run = async (op: Operation, body: unknown, params: Record<string, string> = {}, c: Ctx = ctx) =>
    (await op.run(c, parseOperationInput(op, { params, query: {}, body }))).data as Record<string, unknown>;
  const contact = await run(createContact, { contactType: 'customer', name: 'Client One Ltd', email: 'jo@client.test' });
  // 1 × £100.00 at 20%: £100.00 net + £20.00 VAT = £120.00 = 12000p.
  const invoice = await run(createInvoice, { contactId: contact['id'], items: [{ description: 'Work', quantity: 1, unitPrice: 10000, vatRate: 'standard' }] });
  t.equal(invoice['total'], 12000);
  const id = invoice['id'] as string;

  const handle = books.store.org(books.organisationId, 'live');
  await t.rejects(
    handle.write((trx) =>
      run(
        sendInvoice,
        { sendEmail: true },
        { id },
        { ...ctx, books: { ...handle, id: books.organisationId, mode: 'live', db: trx, write: (work) => work(trx) } },
      ),
    ),
    { code: 'internal_error' },
  );
  t.equal(mailer.sent.length, 0, 'no e-mail');
  t.equal((await run(getInvoice, undefined, { id }))['status'], 'draft', 'still a draft');

  t.match(await run(sendInvoice, { sendEmail: true }, { id }), { status: 'sent', emailed: true });
  t.equal(mailer.sent.length, 1, 'run as the adapters run it, the e-mail goes before the transaction');
});
