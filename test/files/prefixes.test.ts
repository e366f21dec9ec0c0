/**
 * Document-number prefixes (invoicePrefix, quotePrefix, creditNotePrefix)
 * name no other directory: letters, digits, - _ and / (not first), at
 * most 20 characters. Anything else is 400 validation_error naming the
 * field, and nothing is written, through HTTP and through the CLI.
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { books } from '../cli/support.js';
import { clock, expectError, ledger } from '../ledger-http/support.js';

const fields = ['invoicePrefix', 'quotePrefix', 'creditNotePrefix'] as const;

const refused: readonly [string, string][] = [
  ['../../../x-', 'a path up and out of the working directory'],
  ['/etc/x', 'an absolute path'],
  ['ABCDEFGHIJKLMNOPQRSTU', '21 characters'],
  ['INV.', 'a dot'],
  ['..', 'the parent directory'],
  ['INV 1', 'a space'],
  ['INV\\x', 'a backslash'],
  ['ÍNV-', 'a letter outside A-Z'],
  ['INV-\n', 'a line break'],
];

t.test('a bad prefix is refused over HTTP naming its field, and the settings stay as they were', async (t) => {
  const { api } = await ledger(t, { clock });
  const before = (await api.request('GET', '/v1/organisation/settings')).body.data;
  t.match(before, { invoicePrefix: 'INV-', quotePrefix: 'QT-', creditNotePrefix: 'CN-' });
  for (const field of fields) {
    for (const [prefix, why] of refused) {
      const r = await api.request('PUT', '/v1/organisation/settings', { body: { [field]: prefix } });
      t.equal(r.status, 400, `${field} with ${why}: ${JSON.stringify(prefix)}`);
      expectError(t, r, 400, 'validation_error', { field });
    }
  }
  // A good change beside a bad one: the request is refused whole.
  const mixed = await api.request('PUT', '/v1/organisation/settings', { body: { quotePrefix: 'Q-', invoicePrefix: '/etc/x', invoiceNextNumber: 50 } });
  expectError(t, mixed, 400, 'validation_error', { field: 'invoicePrefix' });
  t.same((await api.request('GET', '/v1/organisation/settings')).body.data, before, 'nothing was written');
});

t.test('good prefixes are kept and number the documents', async (t) => {
  const { api } = await ledger(t, { clock });
  const good = { invoicePrefix: 'INV/2026/', quotePrefix: 'Q_2026-', creditNotePrefix: 'ABCDEFGHIJKLMNOPQRST' };
  const r = await api.request('PUT', '/v1/organisation/settings', { body: good });
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  t.match(r.body.data, good, 'a slash inside, - and _, and exactly 20 characters');
  const contact = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Bright Ltd' } });
  const item = { description: 'Consulting', quantity: 1, unitPrice: 10000, vatRate: 'standard' };
  const invoice = await api.request('POST', '/v1/invoices', { body: { contactId: contact.body.data.id, items: [item] } });
  t.equal(invoice.body.data.invoiceNumber, 'INV/2026/0001', 'the slash that ends the prefix sits inside the number');
  const emptied = await api.request('PUT', '/v1/organisation/settings', { body: { quotePrefix: '' } });
  t.equal(emptied.body.data.quotePrefix, '', 'an empty prefix stays allowed: numbers alone');
});

t.test('the CLI refuses a bad prefix with exit 2 naming the field, and writes nothing', async (t) => {
  const { dir } = await books(t);
  for (const [flag, field] of [
    ['--invoice-prefix', '--invoice-prefix'],
    ['--quote-prefix', '--quote-prefix'],
    ['--credit-note-prefix', '--credit-note-prefix'],
  ] as const) {
    const r = await runCliInProcess(['--data', dir, 'settings', 'update', flag, '../../../x-']);
    t.equal(r.status, 2, `${flag}: ${r.stderr}`);
    t.equal(r.stdout, '');
    t.match(r.stderr, new RegExp(`validation_error: .*\\(field ${field}\\)`));
  }
  const shown = await runCliInProcess(['--data', dir, '--json', 'settings', 'get']);
  t.match(JSON.parse(shown.stdout), { invoicePrefix: 'INV-', quotePrefix: 'QT-', creditNotePrefix: 'CN-' }, 'the prefixes are unchanged');
  const ok = await runCliInProcess(['--data', dir, '--json', 'settings', 'update', '--invoice-prefix', 'F/2026/']);
  t.equal(ok.status, 0, ok.stderr);
  t.equal(JSON.parse(ok.stdout).invoicePrefix, 'F/2026/');
});
