/**
 * Control characters in the books never reach the terminal: a name or a
 * description holding ESC sequences (colour, clear screen, OSC 52 to the
 * clipboard), a lone CR, BEL, DEL or a C1 control prints each of them as
 * U+FFFD in tables, records, one-line echoes and error messages. --json
 * keeps the text exactly (JSON escapes the C0 controls).
 */
import t, { type Test } from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson, type Books } from '../helpers/index.js';

/** What a key holder could have stored through the API, or an imported statement carried. */
const hostile = {
  red: '\u001b[31mred',
  clear: 'x\u001b[2Jy',
  overwrite: 'Real Ltd\rFake Ltd',
  clipboard: 'Clip\u001b]52;c;cm0gLXJmIH4=\u0007Ltd',
  c1: 'Csi\u009b2JLtd\u007f',
};

/** Any C0 control but LF, DEL, or a C1 control: what a terminal would act on. */
const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const printed = (text: string): string => JSON.stringify(text.match(raw)?.[0] ?? '');

/**
 * Books with a customer per hostile name, an invoice to the first, and a
 * posting whose description and reference hold ESC. The names go straight
 * into the store (as text written before any check, or by an import, would
 * stand), so that the test is about printing, whatever input validation refuses.
 */
async function hostileBooks(t: Test): Promise<{ books: Books; ids: Record<keyof typeof hostile, string>; invoice: string }> {
  const books = await newBooks(t);
  const db = books.store.org(books.organisationId, 'live').db;
  const ids = {} as Record<keyof typeof hostile, string>;
  for (const [key, name] of Object.entries(hostile) as [keyof typeof hostile, string][]) {
    const made = await runCliInProcessJson(['--data', books.dataDir, '--json', 'contacts', 'create', '--contact-type', 'customer', '--name', `Plain ${key}`]);
    t.equal(made.status, 0, made.stderr);
    ids[key] = (made.data as { id: string }).id;
    await db.updateTable('contacts').set({ name }).where('id', '=', ids[key]).execute();
  }
  const invoice = await runCliInProcessJson([
    '--data',
    books.dataDir,
    '--json',
    'invoices',
    'create',
    '--contact-id',
    ids.red,
    '--item',
    'Work;1;100;standard',
  ]);
  t.equal(invoice.status, 0, invoice.stderr);
  const post = await runCliInProcessJson(['--data', books.dataDir, '--json', 'post', '2026-03-01', 'Plain posting', '5100=10', '1200=-10', '--ref', 'R1']);
  t.equal(post.status, 0, post.stderr);
  await db
    .updateTable('transactions')
    .set({ description: 'Paid \u001b[2J\u001b[Hto you', reference: 'R\u001b[31m1' })
    .where('id', '=', (post.data as { id: string }).id)
    .execute();
  return { books, ids, invoice: (invoice.data as { id: string }).id };
}

t.test('contacts list and contacts get print no control character, each as U+FFFD', async (t) => {
  const { books, ids } = await hostileBooks(t);
  const list = await runCliInProcess(['--data', books.dataDir, 'contacts', 'list', '--wide']);
  t.equal(list.status, 0, list.stderr);
  t.notMatch(list.stdout, raw, `no control character in the table (found ${printed(list.stdout)})`);
  t.match(list.stdout, '\ufffd[31mred', 'ESC shown as U+FFFD, the rest of the name as it is');
  t.match(list.stdout, 'x\ufffd[2Jy');
  t.match(list.stdout, 'Real Ltd\ufffdFake Ltd', 'a lone CR does not return to the start of the line');
  t.match(list.stdout, 'Clip\ufffd]52;c;cm0gLXJmIH4=\ufffdLtd', 'OSC 52 and its BEL');
  t.match(list.stdout, 'Csi\ufffd2JLtd\ufffd', 'a C1 CSI and DEL');

  for (const [key, id] of Object.entries(ids)) {
    const get = await runCliInProcess(['--data', books.dataDir, 'contacts', 'get', id, '--wide']);
    t.equal(get.status, 0, get.stderr);
    t.notMatch(get.stdout, raw, `${key}: no control character in the record (found ${printed(get.stdout)})`);
    t.match(get.stdout, /\ufffd/, `${key}: shown as U+FFFD`);
  }
});

t.test('an invoice to the contact, listed and shown, and the ledger of a posting hold no control character', async (t) => {
  const { books, invoice } = await hostileBooks(t);
  for (const args of [
    ['invoices', 'list'],
    ['invoices', 'get', invoice],
    ['ledger', '1200'],
    ['transactions', 'list'],
  ]) {
    const r = await runCliInProcess(['--data', books.dataDir, ...args, '--wide']);
    t.equal(r.status, 0, r.stderr);
    t.notMatch(r.stdout, raw, `acct ${args.join(' ')}: no control character (found ${printed(r.stdout)})`);
  }
  const ledger = await runCliInProcess(['--data', books.dataDir, 'ledger', '1200', '--wide']);
  t.match(ledger.stdout, 'Paid \ufffd[2J\ufffd[Hto you');
  t.match(ledger.stdout, 'R\ufffd[31m1');
});

t.test('--json keeps the text exactly and is valid JSON with no raw C0 control', async (t) => {
  const { books, ids } = await hostileBooks(t);
  const r = await runCliInProcess(['--data', books.dataDir, '--json', 'contacts', 'get', ids.clipboard]);
  t.equal(r.status, 0, r.stderr);
  t.notMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f]/, 'JSON escapes the C0 controls');
  t.equal((JSON.parse(r.stdout) as { name: string }).name, hostile.clipboard, 'the name as stored');
});

t.test('an error message quoting the text prints no control character either', async (t) => {
  const { books, ids } = await hostileBooks(t);
  // "contact NAME is inactive": the engine quotes the name as stored.
  await books.store.org(books.organisationId, 'live').db.updateTable('contacts').set({ is_active: 0 }).where('id', '=', ids.clear).execute();
  const r = await runCliInProcess(['--data', books.dataDir, 'invoices', 'create', '--contact-id', ids.clear, '--item', 'Work;1;100;standard']);
  t.equal(r.status, 2, r.stderr);
  t.match(r.stderr, 'contact x\ufffd[2Jy is inactive', 'the name quoted, made printable');
  t.notMatch(r.stderr, raw, `no control character (found ${printed(r.stderr)})`);
});
