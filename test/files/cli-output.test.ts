/**
 * The CLI writes a document only where the user said (-o FILE, or -o - for
 * standard output), never to a name made from the data, and never over an
 * existing file without --force. Without -o: exit 2 (validation_error,
 * field output); over a file: exit 4 (conflict), the file untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { runCli, runCliInProcess } from '../helpers/index.js';
import { init } from '../cli/support.js';
import { orgFile } from '../../src/store/data-dir.js';
import { acctOk, customerOk, noSmtp, pdfText, row, twoItems } from '../sales-cli/support.js';

interface Sent {
  readonly data: string;
  readonly work: string;
  readonly id: string;
}

/**
 * Books in `<testdir>/data` whose invoice prefix is a path out of the
 * working directory, as an older acct accepted it (written straight into
 * the database: the API refuses it now), and a sent invoice numbered with
 * it; the CLI runs in `<testdir>/work`.
 */
async function traversalInvoice(t: Test): Promise<Sent> {
  const root = t.testdir({ work: {} });
  const data = path.join(root, 'data');
  const { organisationId } = await init(t, data);
  const db = new Database(orgFile(data, organisationId, 'live'));
  db.prepare("update organisation set invoice_prefix = '../x-'").run();
  db.close();
  const contactId = await customerOk(t, data);
  const { id, invoiceNumber } = await acctOk(t, data, ['invoices', 'create', '--contact-id', contactId, ...twoItems, '--issue-date', '2026-11-01']);
  t.equal(invoiceNumber, '../x-0001', 'the number names a path above the working directory');
  await acctOk(t, data, ['invoices', 'send', id]);
  return { data, work: path.join(root, 'work'), id };
}

t.test('without -o nothing is written, least of all at the name the number makes', async (t) => {
  const { data, work, id } = await traversalInvoice(t);
  const r = await runCliInProcess(['--data', data, 'invoices', 'pdf', id], { cwd: work, env: noSmtp });
  t.equal(r.status, 2, r.stderr);
  t.equal(r.stdout, '');
  t.match(r.stderr, /validation_error: say where to write the document: -o FILE, or -o - for standard output \(field -o\)/);
  t.notOk(fs.existsSync(path.join(work, '..', 'x-0001.pdf')), 'no file above the working directory');
  t.same(fs.readdirSync(work), [], 'none in it either');
});

t.test('-o writes the file named; an existing one is refused unless --force', async (t) => {
  const { data, work, id } = await traversalInvoice(t);
  const out = path.join(work, 'invoice.pdf');
  const written = await acctOk(t, data, ['invoices', 'pdf', id, '-o', out]);
  t.match(written, { id, invoiceNumber: '../x-0001', file: out });
  // 1.5 × £500.00 at 20% (£750.00 + £150.00 VAT) and 2 × £10.00 at 0%: total £920.00
  t.match(pdfText(fs.readFileSync(out)), row('Total', '£920.00'));

  fs.writeFileSync(out, 'my own notes');
  const again = await runCliInProcess(['--data', data, 'invoices', 'pdf', id, '-o', out], { env: noSmtp });
  t.equal(again.status, 4, again.stderr);
  t.match(again.stderr, /conflict: .*invoice\.pdf already exists: pass --force to overwrite it/);
  t.equal(fs.readFileSync(out, 'utf8'), 'my own notes', 'the existing file is untouched');

  // A link planted at the name (dangling, so that a check for the file alone would miss it) is not followed.
  const target = path.join(work, 'elsewhere.pdf');
  const link = path.join(work, 'link.pdf');
  fs.symlinkSync(target, link);
  const linked = await runCliInProcess(['--data', data, 'invoices', 'pdf', id, '-o', link], { env: noSmtp });
  t.equal(linked.status, 4, linked.stderr);
  t.notOk(fs.existsSync(target), 'nothing was written through the link');

  const forced = await acctOk(t, data, ['invoices', 'pdf', id, '-o', out, '--force']);
  t.equal(forced.file, out);
  t.equal(fs.readFileSync(out).subarray(0, 5).toString('latin1'), '%PDF-', '--force overwrote it with the PDF');
});

t.test('credit notes take the same rule', async (t) => {
  const { data, work, id } = await traversalInvoice(t);
  const note = await acctOk(t, data, ['credit-notes', 'create', '--invoice-id', id]);
  const bare = await runCliInProcess(['--data', data, 'credit-notes', 'pdf', note.id], { cwd: work, env: noSmtp });
  t.equal(bare.status, 2, bare.stderr);
  t.match(bare.stderr, /\(field -o\)/);
  const out = path.join(work, 'cn.pdf');
  fs.writeFileSync(out, 'kept');
  const over = await runCliInProcess(['--data', data, 'credit-notes', 'pdf', note.id, '-o', out], { env: noSmtp });
  t.equal(over.status, 4, over.stderr);
  t.equal(fs.readFileSync(out, 'utf8'), 'kept');
  t.same(fs.readdirSync(work), ['cn.pdf'], 'nothing else was written');
});

t.test('bin/acct end to end: -o - to standard output, an existing file refused with exit 4', async (t) => {
  const { data, work, id } = await traversalInvoice(t);
  const piped = runCli(['--data', data, 'invoices', 'pdf', id, '-o', '-'], { cwd: work, env: noSmtp });
  t.equal(piped.status, 0, piped.stderr);
  t.equal(piped.stdout.slice(0, 5), '%PDF-', 'the PDF on standard output');
  const out = path.join(work, 'taken.pdf');
  fs.writeFileSync(out, 'taken');
  const refused = runCli(['--data', data, 'invoices', 'pdf', id, '-o', out], { cwd: work, env: noSmtp });
  t.equal(refused.status, 4, 'exit 4 as the shell sees it');
  t.match(refused.stderr, /already exists: pass --force/);
  t.equal(fs.readFileSync(out, 'utf8'), 'taken');
  t.same(fs.readdirSync(work).sort(), ['taken.pdf'], 'no file named after the number');
  t.notOk(fs.existsSync(path.join(work, '..', 'x-0001.pdf')));
});
