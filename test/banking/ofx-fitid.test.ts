/**
 * OFX's FITID is the bank's own id of a transaction, unique in the account
 * and never changed (OFX 2.1.1 §3.2.1), so over HTTP a statement row that
 * carries one is a duplicate of an earlier row with the same FITID (same day
 * and amount, whatever its description), and never of an earlier row with
 * another FITID: two identical fares downloaded in two files are both kept.
 * Rows without one (CSV) still match by day, description and amount.
 */
import t, { type Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';

type Trn = { date: string; amount: string; name: string; fitid?: string };

/** An SGML OFX 1 statement as UK banks export it, without LEDGERBAL (so no balance to prove). */
function ofx(trns: readonly Trn[]): string {
  const body = trns
    .map(
      (x) =>
        `<STMTTRN>\r\n<TRNTYPE>DEBIT\r\n<DTPOSTED>${x.date.replaceAll('-', '')}\r\n<TRNAMT>${x.amount}\r\n` +
        (x.fitid ? `<FITID>${x.fitid}\r\n` : '') +
        `<NAME>${x.name}\r\n</STMTTRN>\r\n`,
    )
    .join('');
  return (
    'OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\n\r\n<OFX>\r\n<BANKMSGSRSV1>\r\n<STMTTRNRS>\r\n<TRNUID>1\r\n<STMTRS>\r\n<CURDEF>GBP\r\n' +
    '<BANKACCTFROM>\r\n<BANKID>400515\r\n<ACCTID>40051512345678\r\n<ACCTTYPE>CHECKING\r\n</BANKACCTFROM>\r\n<BANKTRANLIST>\r\n' +
    body +
    '</BANKTRANLIST>\r\n</STMTRS>\r\n</STMTTRNRS>\r\n</BANKMSGSRSV1>\r\n</OFX>\r\n'
  );
}

async function upload(t: Test, api: Api, file: string, filename: string) {
  const r = await api.request('POST', '/v1/bank-imports/upload', { body: { file, filename } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  return r.body.data;
}

async function confirm(t: Test, api: Api, importId: string, body: Record<string, unknown> = {}) {
  const r = await api.request('POST', `/v1/bank-imports/${importId}/confirm`, { body });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  return r.body.data;
}

async function bankLines(api: Api): Promise<string[]> {
  const list = (await api.request('GET', '/v1/transactions?limit=100')).body.data as { sourceType: string; date: string; description: string }[];
  return list
    .filter((x) => x.sourceType === 'bank_import')
    .map((x) => `${x.date} ${x.description}`)
    .sort();
}

const morningFare = { date: '2026-11-16', amount: '-2.80', name: 'TFL TRAVEL CH', fitid: '20261116-0001' };
const eveningFare = { date: '2026-11-16', amount: '-2.80', name: 'TFL TRAVEL CH', fitid: '20261116-0002' };

t.test('two identical fares on one day, downloaded in two files, are two transactions', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  // Monday lunchtime's download holds the morning's £2.80 fare; Tuesday's holds the evening's, which
  // the bank gave another FITID: the same day, description and amount, but another transaction.
  const first = await upload(t, api, ofx([morningFare]), 'monday.ofx');
  t.match(first.preview[0], { amount: -280, bankTransactionId: '20261116-0001' }, 'the row shows the FITID it was read with');
  await confirm(t, api, first.importId);
  const second = await upload(
    t,
    api,
    ofx([eveningFare, { date: '2026-11-17', amount: '-3.50', name: 'PRET A MANGER', fitid: '20261117-0001' }]),
    'tuesday.ofx',
  );
  t.match(second, { duplicates: 0, validRows: 2 }, 'another FITID: not a duplicate, though day, description and amount agree');
  t.match(await confirm(t, api, second.importId), { created: 2, skipped: 0 }, 'no decision about duplicates is asked for');
  // Two fares of £2.80 and a £3.50 lunch: £9.10 out of the bank.
  t.same(await bankLines(api), ['2026-11-16 TFL TRAVEL CH', '2026-11-16 TFL TRAVEL CH', '2026-11-17 PRET A MANGER']);
  const bank = (await api.request('GET', '/v1/reports/trial-balance?asOf=2026-11-21')).body.data.accounts.find((a: { code: string }) => a.code === '1200');
  t.equal(bank.credit - bank.debit, 910, '2.80 + 2.80 + 3.50 = 9.10 out of 1200');
});

t.test('the same FITID downloaded again is a duplicate though the bank has since reworded it', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  await confirm(t, api, (await upload(t, api, ofx([morningFare]), 'monday.ofx')).importId);
  // The pending card line became a posted one, with the merchant's full name; its FITID stayed.
  const again = await upload(t, api, ofx([{ ...morningFare, name: 'TFL TRAVEL CHARGE LONDON' }, eveningFare]), 'week.ofx');
  t.match(again, { duplicates: 1, validRows: 1 });
  t.match(
    again.preview.map((r: { status: string; bankTransactionId: string | null }) => [r.status, r.bankTransactionId]),
    [
      ['duplicate', '20261116-0001'],
      ['valid', '20261116-0002'],
    ],
  );
  t.match(await confirm(t, api, again.importId, { duplicates: 'skip' }), { created: 1, skipped: 1 });
  t.equal((await bankLines(api)).length, 2, 'the morning fare once, the evening fare once');
});

t.test('a FITID is only trusted with its day and amount: a bank that numbers each file from 1 loses nothing', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  await confirm(t, api, (await upload(t, api, ofx([{ ...morningFare, fitid: '1' }]), 'monday.ofx')).importId);
  const next = await upload(t, api, ofx([{ date: '2026-11-16', amount: '-12.00', name: 'WAITROSE', fitid: '1' }]), 'tuesday.ofx');
  t.match(next, { duplicates: 0, validRows: 1 }, 'FITID 1 again, but £12.00 is not the £2.80 fare');
});

t.test('rows without a FITID still match by day, description and amount, across formats', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  await confirm(t, api, (await upload(t, api, ofx([morningFare]), 'monday.ofx')).importId);
  const csv = 'Date,Description,Amount\n16/11/2026,TFL TRAVEL CH,-2.80\n';
  const fromCsv = await upload(t, api, csv, 'statement.csv');
  t.match(fromCsv, { duplicates: 1, validRows: 0 }, 'the CSV row has no FITID: it matches the OFX row as before');
  t.equal(fromCsv.preview[0].bankTransactionId, null);
  const noIds = await upload(t, api, ofx([{ ...eveningFare, fitid: undefined }]), 'old-bank.ofx');
  t.match(noIds, { duplicates: 1 }, 'nor has this OFX row');
});
