/**
 * Bank statement imports over HTTP, with real-shaped exports of UK banks
 * (fixtures/bank-statements): upload as JSON, as the raw text/csv body and
 * as multipart/form-data; row conservation asserted on every file (rows in
 * the file = created + skipped + rejected); duplicates of an earlier import
 * refused until decided (422 unresolved_conflicts), identical rows inside
 * one file kept; a wrong closing balance refused (422 balance_mismatch);
 * remap, delete, 409 after completion, 413 past the limit; each created row
 * a bank_import transaction with its other side on suspense or a rule's
 * account. Figures worked by hand from the fixture files.
 */
import fs from 'node:fs';
import t from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const fixture = (name: string) => fs.readFileSync(projectFile(`fixtures/bank-statements/${name}`), 'utf8');

async function world(t: Parameters<typeof newBooks>[0]) {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  return { api, id };
}

async function upload(t: Parameters<typeof newBooks>[0], api: Api, name: string) {
  const r = await api.request('POST', '/v1/bank-imports/upload', { body: { file: fixture(name), filename: name } });
  t.equal(r.status, 201, `${name} uploaded: ${JSON.stringify(r.body.error ?? '')}`);
  return r.body.data;
}

/** Rows in the file = valid + duplicates + rejected at upload, and = created + skipped + rejected once confirmed. */
async function confirmConserved(
  t: Parameters<typeof newBooks>[0],
  api: Api,
  preview: { importId: string; totalRows: number; validRows: number; duplicates: number; errorRows: number },
  body: Record<string, unknown> = {},
) {
  t.equal(preview.validRows + preview.duplicates + preview.errorRows, preview.totalRows, 'upload: rows = valid + duplicates + rejected');
  const r = await api.request('POST', `/v1/bank-imports/${preview.importId}/confirm`, { body });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  t.equal(r.body.data.created + r.body.data.skipped + r.body.data.rejected, preview.totalRows, 'confirm: rows = created + skipped + rejected');
  t.equal(r.body.data.total, preview.totalRows);
  return r.body.data;
}

t.test('five UK banks’ layouts: detected, conserved, posted', async (t) => {
  const { api } = await world(t);
  // Rows per file, counted by hand in the fixtures: Starling 8 (all good), NatWest 6, Lloyds 6 (debit/credit,
  // newest first), HSBC 6 (no header), Barclays 6 with row 4 broken (an unquoted comma), Monzo 7 with row 4
  // broken (31/02/2024).
  for (const [name, preset, total, rejected] of [
    ['starling.csv', 'Starling', 8, 0],
    ['natwest.csv', 'NatWest', 6, 0],
    ['lloyds.csv', 'Lloyds', 6, 0],
    ['hsbc.csv', 'HSBC', 6, 0],
    ['barclays.csv', 'Barclays', 6, 1],
    ['monzo.csv', 'Monzo', 7, 1],
  ] as const) {
    const preview = await upload(t, api, name);
    t.equal(preview.schema.detectedPreset, preset, `${name}: ${preset}`);
    t.equal(preview.totalRows, total, `${name}: ${total} rows`);
    t.equal(preview.errorRows, rejected, `${name}: ${rejected} rejected`);
    const done = await confirmConserved(t, api, preview);
    t.equal(done.created, total - rejected, `${name}: every readable row created`);
  }
});

t.test('Starling: the statement’s lines on the bank and suspense; HMRC VAT by the seed rule; identical rows kept', async (t) => {
  const { api } = await world(t);
  const preview = await upload(t, api, 'starling.csv');
  // Opening 3,450.25 − 1,200.00 = 2,250.25; the eight amounts sum to +1,500.39; closing 3,750.64.
  t.match(preview.balanceProof, { basis: 'RUNNING_BALANCE', status: 'PASS', openingBalance: 225_025, closingBalance: 375_064, delta: 0 });
  t.same(preview.dateRange, { from: '2024-03-02', to: '2024-03-29' });
  const pret = preview.preview.filter((r: { description: string }) => r.description.startsWith('Pret A Manger'));
  t.equal(pret.length, 3, 'three Pret rows, two of them identical on 13/03/2024');
  t.ok(
    pret.every((r: { status: string; amount: number }) => r.status === 'valid' && r.amount === -435),
    'all valid, £4.35 out each',
  );
  const hmrc = preview.preview.find((r: { description: string }) => r.description.startsWith('HMRC VAT'));
  t.match(hmrc.suggestedAccount, { code: '2202', provenance: 'verified', ruleName: 'HMRC VAT payments' });

  const done = await confirmConserved(t, api, preview);
  t.match(done, { created: 8, skipped: 0, rejected: 0, categorised: 1 });

  const txns = await api.request('GET', '/v1/transactions?limit=100&sort=date');
  const fromImport = txns.body.data.filter((x: { sourceType: string }) => x.sourceType === 'bank_import');
  t.equal(fromImport.length, 8);
  const detail = await api.request('GET', `/v1/bank-imports/${preview.importId}`);
  const vatRow = detail.body.data.rows.find((r: { description: string }) => r.description.startsWith('HMRC VAT'));
  const vatTxn = (await api.request('GET', `/v1/transactions/${vatRow.transactionId}`)).body.data;
  t.same(
    vatTxn.lines.map((l: { accountCode: string; amount: number }) => [l.accountCode, l.amount]),
    [
      ['1200', -123_456],
      ['2202', 123_456],
    ],
    'HMRC VAT paid: bank credited £1,234.56, VAT liability debited',
  );
  t.equal(vatTxn.sourceId, preview.importId);
  const pretRow = detail.body.data.rows.find((r: { description: string }) => r.description.startsWith('Pret'));
  const pretTxn = (await api.request('GET', `/v1/transactions/${pretRow.transactionId}`)).body.data;
  t.same(
    pretTxn.lines.map((l: { accountCode: string; amount: number }) => [l.accountCode, l.amount]),
    [
      ['1200', -435],
      ['9999', 435],
    ],
    'no rule: the other side waits on suspense',
  );
  t.equal(detail.body.data.status, 'completed');
});

t.test('an earlier import’s rows are duplicates until decided; identical rows match one earlier row each', async (t) => {
  const { api } = await world(t);
  await confirmConserved(t, api, await upload(t, api, 'starling.csv'));
  const again = await upload(t, api, 'starling.csv');
  t.equal(again.duplicates, 8, 'every row matches one row of the first import, the two identical Pret rows included');
  t.equal(again.validRows, 0);
  const refused = await api.request('POST', `/v1/bank-imports/${again.importId}/confirm`, { body: {} });
  t.equal(refused.status, 422);
  t.equal(refused.body.error.code, 'unresolved_conflicts');
  t.equal((await api.request('GET', `/v1/bank-imports/${again.importId}`)).body.data.status, 'pending', 'still pending');
  const skipped = await confirmConserved(t, api, again, { duplicates: 'skip' });
  t.match(skipped, { created: 0, skipped: 8 });
  const count = (await api.request('GET', '/v1/transactions?limit=100')).body.data.filter((x: { sourceType: string }) => x.sourceType === 'bank_import').length;
  t.equal(count, 8, 'nothing imported twice');
});

t.test('a wrong closing balance is refused at confirm; nothing is posted', async (t) => {
  const { api } = await world(t);
  const preview = await upload(t, api, 'natwest-wrong-balance.csv');
  t.match(preview.balanceProof, { status: 'FAIL', firstBreak: { rowIndex: 4 } });
  t.equal(preview.validRows + preview.duplicates + preview.errorRows, preview.totalRows, 'rows = valid + duplicates + rejected');
  const r = await api.request('POST', `/v1/bank-imports/${preview.importId}/confirm`, { body: {} });
  t.equal(r.status, 422);
  t.equal(r.body.error.code, 'balance_mismatch');
  t.match(r.body.error.message, 'row 4');
  t.equal((await api.request('GET', '/v1/transactions')).body.data.length, 0, 'no transaction');
  const deleted = await api.request('DELETE', `/v1/bank-imports/${preview.importId}`);
  t.same(deleted.body.data, { id: preview.importId, deleted: true });
  t.equal((await api.request('GET', `/v1/bank-imports/${preview.importId}`)).status, 404);
});

t.test('a statement with a header and no rows is refused at upload, naming the file; no import is kept', async (t) => {
  const { api } = await world(t);
  const r = await api.request('POST', '/v1/bank-imports/upload', {
    body: { file: 'Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes\n', filename: 'empty.csv' },
  });
  t.equal(r.status, 400);
  t.match(r.body.error, { code: 'validation_error', field: 'file', message: 'empty.csv holds no transactions: only a header, or nothing to read' });
  t.equal((await api.request('GET', '/v1/bank-imports')).body.data.length, 0, 'no import');
});

t.test('a statement in Windows-1252 (Nationwide’s), raw or multipart, is read as the bank wrote it', async (t) => {
  const { api } = await world(t);
  const bytes = new Uint8Array(fs.readFileSync(projectFile('fixtures/bank-statements/nationwide.csv')));
  const raw = await api.request('POST', '/v1/bank-imports/upload?bankAccountId=1&filename=nationwide.csv', {
    raw: bytes,
    headers: { 'content-type': 'text/csv' },
  });
  t.equal(raw.status, 201, JSON.stringify(raw.body.error ?? ''));
  // 4 rows, none rejected; £1,500.00 − £154.33 − £3.45 − £12.00 from £1,000.00 closes at £2,330.22.
  t.match(raw.body.data, { totalRows: 4, validRows: 4, errorRows: 0, balanceProof: { status: 'PASS', closingBalance: 233022 } });
  const boundary = 'acct-1252';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="bankAccountId"\r\n\r\n1\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="nationwide.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const multipart = await api.request('POST', '/v1/bank-imports/upload', {
    raw: new Uint8Array(Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)])),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  t.equal(multipart.status, 201, JSON.stringify(multipart.body.error ?? ''));
  const rows = (await api.request('GET', `/v1/bank-imports/${multipart.body.data.importId}`)).body.data.rows as { description: string }[];
  t.same(
    rows.map((r) => r.description),
    ['ZETA LTD', 'EDF ENERGY', 'CAFÉ NERO', 'O’NEILL’S BAR'],
  );
});

t.test('raw text/csv and multipart uploads; remap; 409 once completed; 413 past the limit', async (t) => {
  const { api } = await world(t);
  const raw = await api.request('POST', '/v1/bank-imports/upload?bankAccountId=1&filename=hsbc.csv', {
    raw: fixture('hsbc.csv'),
    headers: { 'content-type': 'text/csv' },
  });
  t.equal(raw.status, 201, JSON.stringify(raw.body.error ?? ''));
  t.match(raw.body.data, {
    bankAccountId: 1,
    filename: 'hsbc.csv',
    totalRows: 6,
    schema: { hasHeader: false, columnMapping: { 0: 'date', 1: 'description', 2: 'amount' } },
  });

  // Remap: read the amount column as a balance-less signed amount with its sign flipped.
  const remapped = await api.request('POST', `/v1/bank-imports/${raw.body.data.importId}/remap`, {
    body: { columnMapping: { 0: 'date', 1: 'description', 2: 'amount' }, amountModel: 'SIGN_FLIPPER' },
  });
  t.equal(remapped.status, 200, JSON.stringify(remapped.body.error ?? ''));
  t.equal(remapped.body.data.schema.provenance, 'USER_CORRECTED');
  // "2,750.00" read with its sign flipped: £2,750.00 out.
  t.equal(remapped.body.data.preview[0].amount, -275_000);
  const badMap = await api.request('POST', `/v1/bank-imports/${raw.body.data.importId}/remap`, { body: { columnMapping: { 1: 'description', 2: 'amount' } } });
  t.equal(badMap.status, 400);
  t.equal(badMap.body.error.field, 'columnMapping');

  const boundary = 'acctboundary42';
  const multipart =
    `--${boundary}\r\nContent-Disposition: form-data; name="bankAccountId"\r\n\r\n1\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lloyds.csv"\r\nContent-Type: text/csv\r\n\r\n${fixture('lloyds.csv')}\r\n--${boundary}--\r\n`;
  const form = await api.request('POST', '/v1/bank-imports/upload', {
    raw: multipart,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  t.equal(form.status, 201, JSON.stringify(form.body.error ?? ''));
  t.match(form.body.data, { filename: 'lloyds.csv', totalRows: 6, schema: { detectedPreset: 'Lloyds', amountModel: 'DUAL_COL_DR_CR' } });
  // Lloyds, newest first: the oldest balance 1,762.34 after +1,250.00 opens at 512.34; closing 4,040.89.
  t.match(form.body.data.balanceProof, { status: 'PASS', openingBalance: 51_234, closingBalance: 404_089 });

  await confirmConserved(t, api, form.body.data);
  t.equal((await api.request('POST', `/v1/bank-imports/${form.body.data.importId}/confirm`, { body: {} })).status, 409);
  t.equal((await api.request('DELETE', `/v1/bank-imports/${form.body.data.importId}`)).status, 409);

  const big = 'Date,Description,Amount\n' + '01/01/2024,X,1.00\n'.repeat(600_000);
  const tooLarge = await api.request('POST', '/v1/bank-imports/upload', { raw: big, headers: { 'content-type': 'text/csv' } });
  t.equal(tooLarge.status, 413);
  t.equal((await api.request('GET', '/v1/bank-imports')).body.data.length, 2, 'the refused upload left no import');
});

t.test('OFX and QFX statements import like CSV ones', async (t) => {
  const { api } = await world(t);
  for (const name of ['statement-sgml.ofx', 'credit-card.qfx']) {
    const preview = await upload(t, api, name);
    t.equal(preview.schema.format, 'OFX', name);
    t.equal(preview.balanceProof.basis, 'LEDGER_BALANCE', `${name}: the ledger balance is the closing balance`);
    const done = await confirmConserved(t, api, preview);
    t.equal(done.created, preview.totalRows - preview.errorRows);
  }
});

t.test('uncategorised imported lines keep the VAT return incomplete until categorised', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { vatScheme: 'standard' } });
  const api = await serveBooks(t, books);
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  const file = 'Date,Description,Amount,Balance\n02/05/2026,CARD PAYMENT TO RYMAN LTD,-60.00,940.00\n09/05/2026,ACME WIDGETS LTD INV 7,240.00,1180.00\n';
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file, filename: 'may.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  await confirmConserved(t, api, up.body.data);
  const quarter = '/v1/reports/vat?from=2026-04-01&to=2026-06-30';
  t.equal((await api.request('GET', quarter)).body.error?.code, 'incomplete_ledger');

  const rows = (await api.request('GET', `/v1/bank-imports/${up.body.data.importId}`)).body.data.rows as { transactionId: string; amount: number }[];
  // £60.00 of stationery, VAT inclusive at 20%: VAT £10.00, net £50.00.
  const out = await api.request('PATCH', `/v1/transactions/${rows[0]!.transactionId}/categorise`, {
    body: { accountId: id('5100'), vatRate: 20, vatTreatment: 'inclusive' },
  });
  t.equal(out.status, 200, JSON.stringify(out.body.error ?? ''));
  t.equal((await api.request('GET', quarter)).body.error?.code, 'incomplete_ledger', 'one line still on suspense');
  // £240.00 from a customer, a standard-rated sale, VAT inclusive: VAT £40.00, net £200.00.
  const sale = await api.request('PATCH', `/v1/transactions/${rows[1]!.transactionId}/categorise`, {
    body: { accountId: id('4000'), vatRate: 20, vatTreatment: 'inclusive' },
  });
  t.equal(sale.status, 200, JSON.stringify(sale.body.error ?? ''));
  const vat = await api.request('GET', quarter);
  t.equal(vat.status, 200, JSON.stringify(vat.body.error ?? ''));
  t.match(vat.body.data.boxes, { box1: 4_000, box4: 1_000, box5: 3_000, box6: 20_000, box7: 5_000 });
});

t.test('Revolut: a fee leaves the account with its row; a row in another currency is rejected, not booked as pounds', async (t) => {
  const { api } = await world(t);
  const csv = [
    'Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance',
    'TOPUP,Current,2024-09-01 09:00:00,2024-09-01 09:00:05,Top-up by *1234,200.00,0.00,GBP,COMPLETED,300.00',
    'ATM,Current,2024-09-02 10:00:00,2024-09-02 10:00:02,Cash at Post Office,-50.00,1.00,GBP,COMPLETED,249.00',
    'EXCHANGE,Current,2024-09-03 11:00:00,2024-09-03 11:00:01,Exchanged to EUR,-100.00,0.50,GBP,COMPLETED,148.50',
    'EXCHANGE,Current,2024-09-03 11:00:00,2024-09-03 11:00:01,Exchanged from GBP,116.20,0.00,EUR,COMPLETED,116.20',
    '',
  ].join('\n');
  const r = await api.request('POST', '/v1/bank-imports/upload', { body: { file: csv, filename: 'revolut-september.csv' } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  const preview = r.body.data;
  t.equal(preview.schema.detectedPreset, 'Revolut');
  // Revolut's Amount leaves its Fee out: the cash withdrawal takes £50.00 + £1.00 = £51.00, the exchange £100.00 + £0.50.
  t.same(
    preview.preview.filter((x: { status: string }) => x.status === 'valid').map((x: { description: string; amount: number }) => [x.description, x.amount]),
    [
      ['Top-up by *1234', 20_000],
      ['Cash at Post Office', -5_100],
      ['Exchanged to EUR', -10_050],
    ],
  );
  // Row 4 is €116.20 of the euro account: rejected with its reason, not booked as £116.20.
  t.equal(preview.errorRows, 1);
  t.match(JSON.stringify(preview), /the row is in EUR; acct keeps books in GBP/);
  // The pounds rows prove against Revolut's balances: opening 300.00 − 200.00 = 100.00; + 200.00 − 51.00 − 100.50 = 148.50.
  t.match(preview.balanceProof, { status: 'PASS', openingBalance: 10_000, closingBalance: 14_850, delta: 0 });
  const done = await confirmConserved(t, api, preview);
  t.match(done, { created: 3, rejected: 1 });
});

/** The amounts of the bank_import lines on a ledger account, smallest first. */
async function bankLinesOf(api: Api, accountId: string) {
  const txns = (await api.request('GET', '/v1/transactions?limit=100')).body.data as { id: string; sourceType: string }[];
  const out: number[] = [];
  for (const x of txns.filter((x) => x.sourceType === 'bank_import')) {
    const lines = (await api.request('GET', `/v1/transactions/${x.id}`)).body.data.lines as { accountId: string; amount: number }[];
    out.push(...lines.filter((l) => l.accountId === accountId).map((l) => l.amount));
  }
  return out.sort((a, b) => a - b);
}

t.test('the same statement uploaded twice before either is confirmed: the second confirm finds the duplicate', async (t) => {
  const { api, id } = await world(t);
  const file = 'Date,Description,Amount\n10/05/2026,Race row,-3.00\n10/05/2026,Race row,-3.00\n11/05/2026,Other row,7.00\n';
  const first = (await api.request('POST', '/v1/bank-imports/upload', { body: { file } })).body.data;
  const second = (await api.request('POST', '/v1/bank-imports/upload', { body: { file } })).body.data;
  t.equal(second.duplicates, 0, 'nothing was completed at upload');
  await confirmConserved(t, api, first);
  t.same(await bankLinesOf(api, id('1200')), [-300, -300, 700], 'the first import: £3.00 out twice, £7.00 in');

  // The second import is now refused exactly as if the first had been completed when it was uploaded.
  const pending = (await api.request('GET', `/v1/bank-imports/${second.importId}`)).body.data;
  t.equal(pending.duplicates, 3, 'its rows marked as duplicates once the first import completed');
  t.same(
    pending.rows.map((r: { status: string; duplicateMatch: { importId: string } | null }) => [r.status, r.duplicateMatch?.importId]),
    [
      ['duplicate', first.importId],
      ['duplicate', first.importId],
      ['duplicate', first.importId],
    ],
  );
  const refused = await api.request('POST', `/v1/bank-imports/${second.importId}/confirm`, { body: {} });
  t.equal(refused.status, 422);
  t.equal(refused.body.error.code, 'unresolved_conflicts');
  t.same(await bankLinesOf(api, id('1200')), [-300, -300, 700], 'the refusal posted nothing');
  const skipped = await api.request('POST', `/v1/bank-imports/${second.importId}/confirm`, { body: { duplicates: 'skip' } });
  t.match(skipped.body.data, { created: 0, skipped: 3 });
  t.same(await bankLinesOf(api, id('1200')), [-300, -300, 700], 'nothing posted twice');
});

t.test('duplicates are found across the bank accounts of one ledger account', async (t) => {
  const { api, id } = await world(t);
  await confirmConserved(t, api, await upload(t, api, 'starling.csv'));
  // Bank account 1 archived, and a new bank account opened over the same ledger account, 1200.
  t.equal((await api.request('DELETE', '/v1/bank-accounts/1')).status, 200);
  const reopened = await api.request('POST', '/v1/bank-accounts', { body: { accountName: 'Current Account', accountId: id('1200') } });
  t.equal(reopened.status, 201, JSON.stringify(reopened.body.error ?? ''));
  const again = await api.request('POST', '/v1/bank-imports/upload', { body: { file: fixture('starling.csv'), bankAccountId: reopened.body.data.id } });
  t.equal(again.status, 201, JSON.stringify(again.body.error ?? ''));
  t.equal(again.body.data.duplicates, 8, 'the eight rows already on 1200 through bank account 1');
  const refused = await api.request('POST', `/v1/bank-imports/${again.body.data.importId}/confirm`, { body: {} });
  t.equal(refused.body.error?.code, 'unresolved_conflicts');
  // A new ledger account of its own (1201) has none of them.
  const savings = await api.request('POST', '/v1/bank-accounts', { body: { accountName: 'Savings' } });
  const other = await api.request('POST', '/v1/bank-imports/upload', { body: { file: fixture('starling.csv'), bankAccountId: savings.body.data.id } });
  t.match(other.body.data, { accountId: savings.body.data.accountId, duplicates: 0, validRows: 8 });
});

t.test(
  'confirm refuses the bank’s own account and the receivables and payables control accounts; a rule naming the bank’s own account is passed over',
  async (t) => {
    const { api, id } = await world(t);
    const file = 'Date,Description,Amount\n10/05/2026,TRANSFER FROM SAVINGS,500.00\n11/05/2026,ACME LTD INV 7,120.00\n';
    const preview = (await api.request('POST', '/v1/bank-imports/upload', { body: { file } })).body.data;
    const rows = (await api.request('GET', `/v1/bank-imports/${preview.importId}`)).body.data.rows as { id: number }[];
    for (const [body, field, message] of [
      [{ rowAccountMap: { [rows[0]!.id]: id('1200') } }, 'rowAccountMap', /1200 Bank Account is the bank line’s own account/],
      [{ defaultAccountId: id('1200') }, 'defaultAccountId', /1200 Bank Account is the bank line’s own account/],
      [{ rowAccountMap: { [rows[1]!.id]: id('1100') } }, 'rowAccountMap', /receivables control account.*record the payment on the invoice/],
      [{ defaultAccountId: id('2100') }, 'defaultAccountId', /payables control account.*record the payment on the bill/],
    ] as const) {
      const r = await api.request('POST', `/v1/bank-imports/${preview.importId}/confirm`, { body });
      t.equal(r.status, 400, JSON.stringify(r.body.error));
      t.match(r.body.error, { code: 'validation_error', field, message });
    }
    t.equal((await api.request('GET', '/v1/transactions')).body.data.length, 0, 'the refusals posted nothing');
    t.equal((await api.request('GET', `/v1/bank-imports/${preview.importId}`)).body.data.status, 'pending');

    // A rule may send lines to a bank account (a transfer from another one), but never a line of that bank account itself.
    const rule = await api.request('POST', '/v1/categorisation-rules', {
      body: { name: 'Savings transfers', field: 'description', operator: 'contains', value: 'TRANSFER FROM SAVINGS', targetAccountId: id('1200') },
    });
    t.equal(rule.status, 201, JSON.stringify(rule.body.error ?? ''));
    const shown = (await api.request('GET', `/v1/bank-imports/${preview.importId}`)).body.data.rows as { suggestedAccount: unknown }[];
    t.equal(shown[0]!.suggestedAccount, null, 'no suggestion of the bank’s own account');
    const done = await confirmConserved(t, api, preview);
    t.match(done, { created: 2, categorised: 0 });
    const lines = await bankLinesOf(api, id('9999'));
    // £500.00 and £120.00 in: their other sides, −500.00 and −120.00, wait on suspense.
    t.same(lines, [-50_000, -12_000]);
  },
);

t.test('rows a transaction cannot hold are rejected at upload, each with its reason; the rest of the file imports', async (t) => {
  const { api, id } = await world(t);
  const file = [
    'Date,Description,Reference,Amount,Balance',
    '01/05/2026,Opening deposit,,100.00,100.00',
    `02/05/2026,Long reference,${'R'.repeat(300)},-10.00,90.00`,
    `03/05/2026,${'D'.repeat(100_000)},,-20.00,70.00`,
    '04/05/2026,Nothing moved,,0.00,70.00',
    '05/05/2026,Stationery,INV 42,-5.00,65.00',
    '',
  ].join('\n');
  const r = await api.request('POST', '/v1/bank-imports/upload', { body: { file } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  const preview = r.body.data;
  t.match(preview, { totalRows: 5, validRows: 2, errorRows: 3 });
  // The proof reads every row the bank printed: 100.00 − 10.00 − 20.00 + 0.00 − 5.00 = 65.00, as stated.
  t.match(preview.balanceProof, { status: 'PASS', openingBalance: 0, closingBalance: 6_500 });
  t.same(
    preview.preview.map((x: { rowIndex: number; status: string; error: string | null }) => [x.rowIndex, x.status, x.error]),
    [
      [1, 'valid', null],
      [2, 'error', 'line 3: the reference is 300 characters long; a transaction’s is at most 100'],
      [3, 'error', 'line 4: the description is 100,000 characters long; a transaction’s is at most 500'],
      [4, 'error', 'line 5: a zero amount posts nothing'],
      [5, 'valid', null],
    ],
  );
  const done = await confirmConserved(t, api, preview);
  t.match(done, { created: 2, skipped: 0, rejected: 3 });
  // On 1200: +100.00 and −5.00.
  t.same(await bankLinesOf(api, id('1200')), [-500, 10_000]);
  const txns = (await api.request('GET', '/v1/transactions?limit=100')).body.data as { id: string; description: string }[];
  const stationery = txns.find((x) => x.description === 'Stationery')!;
  const edited = await api.request('GET', `/v1/transactions/${stationery.id}`);
  t.equal(edited.body.data.reference, 'INV 42');
});

t.test('confirm with dryRun answers what confirm would do, or its refusal, and writes nothing', async (t) => {
  const { api } = await world(t);
  const wrong = await upload(t, api, 'natwest-wrong-balance.csv');
  const refused = await api.request('POST', `/v1/bank-imports/${wrong.importId}/confirm`, { body: { dryRun: true } });
  t.equal(refused.status, 422);
  t.equal(refused.body.error.code, 'balance_mismatch');

  const preview = await upload(t, api, 'starling.csv');
  // With an Idempotency-Key the operation runs inside the key's transaction, which commits what it leaves: the dry run must leave nothing.
  for (const headers of [{}, { 'idempotency-key': 'dry-run-starling' }] as Record<string, string>[]) {
    const dry = await api.request('POST', `/v1/bank-imports/${preview.importId}/confirm`, { body: { dryRun: true }, headers });
    t.equal(dry.status, 200, JSON.stringify(dry.body.error ?? ''));
    t.match(dry.body.data, { created: 8, skipped: 0, rejected: 0, total: 8, categorised: 1 }, 'Starling: 8 rows, the HMRC one by the seed rule');
    t.equal((await api.request('GET', '/v1/transactions')).body.data.length, 0, 'no transaction');
    t.equal((await api.request('GET', `/v1/bank-imports/${preview.importId}`)).body.data.status, 'pending', 'still pending');
  }
  const done = await confirmConserved(t, api, preview);
  t.match(done, { created: 8, categorised: 1 });
});

t.test('a Debit/Credit indicator column signs an unsigned amount: detected by its header, by a Type column of such values, and by remap', async (t) => {
  const { api } = await world(t);
  type Preview = { preview: { status: string; amount: number; error: string | null }[] };
  const amounts = (preview: Preview) => preview.preview.filter((x) => x.status === 'valid').map((x) => x.amount);
  const errorsOf = (preview: Preview) => preview.preview.filter((x) => x.status === 'error').map((x) => x.error);
  const csv =
    'Date,Description,Amount,Debit/Credit\n01/06/2026,Shop,12.00,Debit\n02/06/2026,Client,100.00,Credit\n03/06/2026,Odd,5.00,Pending\n04/06/2026,Fee,1.50,dr\n';
  const r = await api.request('POST', '/v1/bank-imports/upload', { body: { file: csv, filename: 'indicator.csv' } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  t.match(r.body.data.schema, { amountModel: 'SIGNED_SINGLE', columnMapping: { 0: 'date', 1: 'description', 2: 'amount', 3: 'indicator' } });
  // Shop: Debit 12.00 is £12.00 out; Client: Credit 100.00 is £100.00 in; Fee: dr 1.50 is £1.50 out.
  t.same(amounts(r.body.data), [-1_200, 10_000, -150]);
  // Pending is neither Debit nor Credit: a row error, not money in.
  t.equal(r.body.data.errorRows, 1);
  t.same(errorsOf(r.body.data), ['line 4: "Pending" is neither Debit nor Credit']);
  const done = await confirmConserved(t, api, r.body.data);
  t.match(done, { created: 3, rejected: 1 });

  // A column headed Type whose values are all D or C (any case) is the indicator too; a minus against Credit is a row error.
  const typed = 'Date,Description,Amount,Type\n05/06/2026,Rent,750.00,D\n06/06/2026,Sale,40.00,c\n07/06/2026,Refund,-3.00,C\n';
  const u = await api.request('POST', '/v1/bank-imports/upload', { body: { file: typed, filename: 'typed.csv' } });
  t.equal(u.status, 201, JSON.stringify(u.body.error ?? ''));
  t.equal(u.body.data.schema.columnMapping[3], 'indicator');
  // Rent: D 750.00 is −£750.00; Sale: c 40.00 is +£40.00.
  t.same(amounts(u.body.data), [-75_000, 4_000]);
  t.same(errorsOf(u.body.data), ['line 4: the amount "-3.00" has a minus sign, but the row says Credit']);

  // A header acct does not know: read as skip, then remapped to the indicator.
  const unknown = 'Date,Description,Amount,Dir\n08/06/2026,Shop,12.00,Debit\n09/06/2026,Client,100.00,Credit\n';
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file: unknown, filename: 'dir.csv' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal(up.body.data.schema.columnMapping[3], 'skip');
  t.same(amounts(up.body.data), [1_200, 10_000], 'read as signed while the column is skipped');
  const remapped = await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/remap`, {
    body: { columnMapping: { 0: 'date', 1: 'description', 2: 'amount', 3: 'indicator' } },
  });
  t.equal(remapped.status, 200, JSON.stringify(remapped.body.error ?? ''));
  // Shop: Debit 12.00 is −£12.00; Client: Credit 100.00 is +£100.00.
  t.same(amounts(remapped.body.data), [-1_200, 10_000]);
  // An indicator beside debit and credit columns, or with the amount's sign flipped, has nothing to sign: 400 naming the field.
  const both = await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/remap`, {
    body: { columnMapping: { 0: 'date', 1: 'debit', 2: 'credit', 3: 'indicator' } },
  });
  t.match([both.status, both.body.error?.field], [400, 'columnMapping']);
  const flipped = await api.request('POST', `/v1/bank-imports/${up.body.data.importId}/remap`, {
    body: { columnMapping: { 0: 'date', 1: 'description', 2: 'amount', 3: 'indicator' }, amountModel: 'SIGN_FLIPPER' },
  });
  t.match([flipped.status, flipped.body.error?.field], [400, 'amountModel']);
});

t.test('a row differing from an earlier import’s only in case (or in runs of spaces) is a duplicate', async (t) => {
  const { api, id } = await world(t);
  const earlier = 'Date,Description,Amount\n10/05/2026,Acme Ltd,-120.00\n11/05/2026,Café Ölmühle,-4.50\n';
  const first = (await api.request('POST', '/v1/bank-imports/upload', { body: { file: earlier } })).body.data;
  await confirmConserved(t, api, first);
  // The bank's export upper-cased the same two lines, the second with two spaces where one was.
  const later = 'Date,Description,Amount\n10/05/2026,ACME LTD,-120.00\n11/05/2026,CAFÉ  ÖLMÜHLE,-4.50\n12/05/2026,ACME LTD,-120.00\n';
  const second = (await api.request('POST', '/v1/bank-imports/upload', { body: { file: later } })).body.data;
  t.equal(second.duplicates, 2, 'the two lines already imported, whatever their case; the 12 May line is new');
  const done = await confirmConserved(t, api, second, { duplicates: 'skip' });
  t.match(done, { created: 1, skipped: 2 });
  // 1200: −120.00 and −4.50 from the first import, −120.00 of 12 May from the second; not −120.00 twice for 10 May.
  t.same(await bankLinesOf(api, id('1200')), [-12_000, -12_000, -450]);
});
