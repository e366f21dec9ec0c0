// OFX and QFX beyond the fixtures: broken transactions, and the files acct refuses whole.
import t from 'tap';
import { readStatement } from '../../src/engine/banking/statements/read-statement.js';
import { assertConserved, fixtureText } from './support.js';

const sgml = fixtureText('statement-sgml.ofx');

t.test('a transaction without a readable date or amount is a rejected row', async (t) => {
  const text = sgml.replace('<TRNAMT>-42.50', '<TRNAMT>N/A').replace('<DTPOSTED>20240911', '<DTPOSTED>20241311');
  const r = readStatement(text);
  assertConserved(t, r, { rows: 3, rejected: 2, ignored: 0 });
  // Each keeps the rest of what it says: the name, the FITID or cheque number as the reference, the day or −£300.00.
  t.same(r.rejected, [
    {
      rowIndex: 2,
      line: 47,
      reason: 'TRNAMT "N/A" is not an amount',
      read: { date: '2024-09-05', description: 'BT GROUP PLC', reference: '202409050001', amount: null, balance: null },
    },
    {
      rowIndex: 3,
      line: 54,
      reason: 'DTPOSTED "20241311" is not a date',
      read: { date: null, description: 'CHEQUE 000456', reference: '000456', amount: -30_000, balance: null },
    },
  ]);
});

t.test('content says OFX whatever the file is called', async (t) => {
  t.equal(readStatement(sgml, { filename: 'download.txt' }).schema.format, 'OFX');
  t.equal(readStatement(fixtureText('credit-card.qfx')).schema.format, 'OFX');
});

t.test('without LEDGERBAL there is no balance to prove', async (t) => {
  const text = sgml.replace(/<LEDGERBAL>[\s\S]*?<\/LEDGERBAL>\r\n/, '');
  t.equal(readStatement(text).balanceProof.basis, 'NONE');
});

t.test('files acct refuses whole are a 400 on file', async (t) => {
  const refused: [string, string][] = [
    [sgml.replace('<CURDEF>GBP', '<CURDEF>EUR'), 'the statement is in EUR; acct keeps books in GBP'],
    [sgml.replace('<BALAMT>2839.22', '<BALAMT>lots'), 'LEDGERBAL "lots" is not an amount'],
    [
      sgml.replace('</STMTTRNRS>', '</STMTTRNRS>\r\n' + sgml.slice(sgml.indexOf('<STMTTRNRS>'), sgml.indexOf('</STMTTRNRS>') + 12)),
      'the OFX file holds 2 statements; export one account at a time',
    ],
    [sgml.replace('<BANKMSGSRSV1>', '<OTHERMSGSRSV1>').replace('</BANKMSGSRSV1>', '</OTHERMSGSRSV1>'), 'the OFX file holds no bank or credit-card statement'],
    // ofx-js's SGML reader takes time doubling with each letter of a tag name: such a file never reaches it.
    [`OFXHEADER:100\n<OFX><${'A'.repeat(40)}>x`, `the OFX file has a tag <${'A'.repeat(30)}…> longer than any OFX element`],
    [`OFXHEADER:100\n<OFX>${`<${'B'.repeat(20)}>x`.repeat(40)}`, 'the OFX file has more tags than acct reads in one statement: export a shorter period'],
  ];
  for (const [text, message] of refused) t.throws(() => readStatement(text), { code: 'validation_error', field: 'file', message }, message);
  t.throws(() => readStatement('not an ofx file at all', { filename: 'x.ofx' }), {
    code: 'validation_error',
    field: 'file',
    message: 'the file is not OFX that can be read: it has no <OFX> element',
  });
});
