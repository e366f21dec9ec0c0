// A user's remap over the detected schema: what it changes, and the 400s
// for a mapping rows cannot be read through (gap-facts 2.11: a date column,
// and an amount column or both debit and credit).
import t from 'tap';
import { readStatement } from '../../src/engine/banking/statements/read-statement.js';
import { fixtureText, money, readFixture } from './support.js';

// Columns: 0 date, 1 value date, 2 description, 3 out, 4 in, 5 amount, 6 note.
const text = ['When,Value on,What,Out,In,Net,Note', '01/02/2024,03/02/2024,ALPHA,5.00,,-5.00,x', '04/02/2024,05/02/2024,BETA,,7.25,7.25,y'].join('\n');

t.test('remapping columns reads the file through the new mapping', async (t) => {
  const detected = readStatement(text);
  // No header name says date or amount, so the columns are told from their cells: Net does not move by the amounts, so it is no running balance.
  t.match(detected.schema, { provenance: 'LOCAL', hasHeader: true, amountModel: 'DUAL_COL_DR_CR' });
  t.same(detected.schema.columnMapping, { 0: 'date', 1: 'skip', 2: 'description', 3: 'debit', 4: 'credit', 5: 'skip', 6: 'skip' });

  const single = readStatement(text, { schema: { columnMapping: { 1: 'date', 2: 'description', 5: 'amount', 6: 'reference' } } });
  t.match(single.schema, { provenance: 'USER_CORRECTED', amountModel: 'SIGNED_SINGLE', dateFormat: 'DD/MM/YYYY', fingerprint: detected.schema.fingerprint });
  t.same(single.schema.columnMapping, { 1: 'date', 2: 'description', 5: 'amount', 6: 'reference' }, 'columns left out are skipped');
  t.same(money(single), [
    [1, '2024-02-03', -500, null], // the value date, column 1
    [2, '2024-02-05', 725, null],
  ]);
  t.equal(single.rows[0]!.reference, 'x');

  const dual = readStatement(text, { schema: { columnMapping: { 0: 'date', 2: 'description', 3: 'debit', 4: 'credit' } } });
  t.equal(dual.schema.amountModel, 'DUAL_COL_DR_CR', 'the amount model follows the mapping');
  t.same(money(dual), [
    [1, '2024-02-01', -500, null],
    [2, '2024-02-04', 725, null],
  ]);

  const flipped = readStatement(text, { schema: { columnMapping: { 0: 'date', 2: 'description', 5: 'amount' }, amountModel: 'SIGN_FLIPPER' } });
  t.same(
    flipped.rows.map((r) => r.amount),
    [500, -725],
    'SIGN_FLIPPER reads 5.00 out as money in when the user says the file is signed the other way',
  );
});

t.test('a date format or header choice from the user wins over detection', async (t) => {
  const us = readStatement(text, { schema: { columnMapping: { 0: 'date', 2: 'description', 5: 'amount' }, dateFormat: 'MM/DD/YYYY' } });
  t.same(
    us.rows.map((r) => r.date),
    ['2024-01-02', '2024-04-02'],
  );
  const headerless = readStatement(fixtureText('hsbc.csv'), { schema: { hasHeader: true } });
  // The first line becomes the header (its cells name no role, so the roles come from the cells below): five data rows remain.
  t.equal(headerless.totalRows, 5);
  t.same(headerless.schema.columnMapping, { 0: 'date', 1: 'description', 2: 'amount' });
  t.equal(headerless.rows[0]!.amount, -780);
  t.equal(headerless.schema.provenance, 'USER_CORRECTED');
  const starling = readFixture('starling.csv', { schema: { hasHeader: false, columnMapping: { 0: 'date', 1: 'description', 4: 'amount' } } });
  // The header line is now a data row, rejected for its date; the eight real rows are read.
  t.equal(starling.totalRows, 9);
  // Of the header's cells only the description reads: "Amount (GBP)" is no amount.
  t.same(starling.rejected, [
    {
      rowIndex: 1,
      line: 1,
      reason: '"Date" is not a date in the format DD/MM/YYYY',
      read: { date: null, description: 'Counter Party', reference: null, amount: null, balance: null },
    },
  ]);
});

t.test('a remap rows cannot be read through is a 400 naming the field', async (t) => {
  const refused: [object, string, string][] = [
    [{ columnMapping: { 2: 'description', 5: 'amount' } }, 'columnMapping', 'columnMapping needs a date column'],
    [{ columnMapping: { 0: 'date', 2: 'description' } }, 'columnMapping', 'columnMapping needs an amount column, or both a debit and a credit column'],
    [{ columnMapping: { 0: 'date', 3: 'debit' } }, 'columnMapping', 'columnMapping needs an amount column, or both a debit and a credit column'],
    [{ columnMapping: { 0: 'date', 3: 'amount', 5: 'amount' } }, 'columnMapping', 'columnMapping gives the role amount to 2 columns; one is allowed'],
    [{ columnMapping: { 0: 'date', 9: 'amount' } }, 'columnMapping', "columnMapping names column 9, but the file's columns are 0 to 6"],
    [{ columnMapping: { 0: 'date', '-1': 'amount' } }, 'columnMapping', "columnMapping names column -1, but the file's columns are 0 to 6"],
    [
      { columnMapping: { 0: 'date', 5: 'money' } },
      'columnMapping',
      'columnMapping gives column 5 the role money; roles are date, description, amount, debit, credit, balance, reference, type, indicator, skip',
    ],
    [{ columnMapping: ['date', 'amount'] }, 'columnMapping', 'columnMapping must map column numbers ("0", "1" …) to roles'],
    [
      { columnMapping: { 0: 'date', 5: 'amount' }, amountModel: 'DUAL_COL_DR_CR' },
      'amountModel',
      'amountModel DUAL_COL_DR_CR needs a debit and a credit column in columnMapping',
    ],
    [
      { columnMapping: { 0: 'date', 3: 'debit', 4: 'credit' }, amountModel: 'SIGNED_SINGLE' },
      'amountModel',
      'amountModel SIGNED_SINGLE needs an amount column in columnMapping',
    ],
    [{ amountModel: 'BOTH' }, 'amountModel', 'amountModel must be one of SIGNED_SINGLE, DUAL_COL_DR_CR, SIGN_FLIPPER'],
    [{ columnMapping: { 0: 'date', 5: 'amount' }, dateFormat: 'D/M/Y' }, 'dateFormat', 'dateFormat must be one of'],
    [{ hasHeader: 'yes' }, 'hasHeader', 'hasHeader must be true or false'],
  ];
  for (const [schema, field, message] of refused) {
    // The remap arrives as JSON from the API: its shape is checked here too, whatever the type says.
    t.throws(() => readStatement(text, { schema }), { code: 'validation_error', field, message: new RegExp(`^${escape(message)}`) }, JSON.stringify(schema));
  }
});

t.test('an OFX statement has no columns to remap', async (t) => {
  t.throws(() => readStatement(fixtureText('statement-sgml.ofx'), { schema: { columnMapping: { 0: 'date', 1: 'amount' } } }), {
    code: 'validation_error',
    field: 'columnMapping',
    message: 'an OFX statement has no columns to remap',
  });
  t.throws(() => readStatement(fixtureText('statement-sgml.ofx'), { schema: { dateFormat: 'DD/MM/YYYY' } }), { code: 'validation_error', field: 'dateFormat' });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
