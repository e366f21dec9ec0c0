import t from 'tap';
import { readCsvRecords } from '../../src/engine/tabular/csv-records.js';
import { cellOf, findHeaderRow } from '../../src/engine/tabular/header-row.js';

const aliases = { account: ['account', 'account name'], code: ['account code', 'code'], debit: ['debit'], credit: ['credit'] };

t.test('the header is found below title lines, by aliases compared without case or punctuation', async (t) => {
  const text = 'Trial Balance\nDemo Ltd\nAs at 31 March 2025\n\nAccount Code,Account_Name,DEBIT,Credit\n200,Sales,,"1,000.00"\n';
  const records = readCsvRecords(text, ',');
  const header = findHeaderRow(records, aliases, ['account', 'debit', 'credit']);
  t.same(header, { index: 4, columns: { account: 1, code: 0, debit: 2, credit: 3 } });
  t.equal(cellOf(records[5]!, header!.columns, 'credit'), '1,000.00');
});

t.test('no header among the opening records: null', async (t) => {
  t.equal(findHeaderRow(readCsvRecords('a,b\n1,2\n', ','), aliases, ['account']), null);
});

t.test('the earlier alias wins and no cell serves two fields', async (t) => {
  const records = readCsvRecords('Code,Account Code,Account\n', ',');
  t.same(findHeaderRow(records, aliases, ['account'])?.columns, { account: 2, code: 1 });
});
