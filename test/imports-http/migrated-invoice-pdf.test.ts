/**
 * A migrated invoice was issued by the old system: its PDF prints the
 * seller and the customer as they were when it was brought forward, not as
 * renamed since. Over HTTP, read back with pdftotext; the clock is
 * 28 November 2026 and the cutover 31 October 2026.
 */
import t from 'tap';
import { world } from './support.js';
import { pdfText } from '../sales-cli/support.js';

t.test('a migrated invoice prints the seller and customer as at the migration', async (t) => {
  const w = await world(t, { businessType: 'limited_company', vatScheme: 'standard' }, '2026-11-28T10:00:00Z');
  t.equal((await w.api.request('PUT', '/v1/organisation', { body: { vatNumber: 'GB980780684' } })).status, 200);
  // Trade Debtors £1,200.00 on 1198, balanced by capital; XR-101 (gross £1,200.00, VAT £200.00) clears it.
  const opening = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: { file: 'Account,Debit,Credit\nTrade Debtors,1200.00,\nShare Capital,,1200.00\n', clearingMode: 'clearing', cutoverDate: '2026-10-31' },
  });
  t.equal(opening.status, 201, JSON.stringify(opening.body.error ?? ''));
  t.equal((await w.api.request('POST', `/v1/opening-balances/${opening.body.data.importId}/confirm`)).status, 200);
  const up = await w.api.request('POST', '/v1/invoice-imports/upload', {
    body: {
      file: 'ContactName,InvoiceNumber,InvoiceDate,DueDate,Total,TaxTotal\nHarbour Cafe Ltd,XR-101,15/10/2026,14/12/2026,1200.00,200.00\n',
      source: 'Xero',
    },
  });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal((await w.api.request('POST', `/v1/invoice-imports/${up.body.data.importId}/confirm`)).status, 200);
  const invoice = ((await w.api.request('GET', '/v1/invoices')).body.data as { id: string; invoiceNumber: string; contactId: string }[]).find(
    (i) => i.invoiceNumber === 'XR-101',
  )!;
  t.ok(invoice, 'XR-101 brought forward');

  t.equal((await w.api.request('PUT', `/v1/contacts/${invoice.contactId}`, { body: { name: 'Harbour Coffee Co' } })).status, 200);
  t.equal((await w.api.request('PUT', '/v1/organisation', { body: { name: 'Renamed Widgets Ltd', vatNumber: 'GB123456782' } })).status, 200);

  const pdf = await w.api.request('GET', `/v1/invoices/${invoice.id}/pdf`);
  t.equal(pdf.status, 200);
  const text = pdfText(pdf.bytes);
  for (const s of ['Harbour Cafe Ltd', 'VAT registration number: GB980780684']) t.ok(text.includes(s), `prints ${s}`);
  for (const s of ['Harbour Coffee Co', 'Renamed Widgets Ltd', 'GB123456782']) t.notOk(text.includes(s), `does not print ${s}`);
});
