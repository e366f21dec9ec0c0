/**
 * readCsvRecords: an export that opens with lines of another shape (a title,
 * the company, a date range) is read as the same records, on the same lines,
 * whether the opening lines are read apart from the table or with it.
 */
import t from 'tap';
import { readCsvRecords } from '../../src/engine/tabular/csv-records.js';

const linesOf = (text: string) => readCsvRecords(text, ',').map((r) => [r.line, r.cells.join('|'), r.error === null ? '' : 'error']);

t.test('title lines, a blank line, the header and rows: every record on its own line', async (t) => {
  const text = 'Open Invoices\nMarlpit Ltd\n\nDate,No.,Amount\n12/02/2025,3107,"£1,140.00"\n05/03/2025,3115,486.60\nTOTAL,,"£1,626.60"\n';
  const expected = [
    [1, 'Open Invoices', ''],
    [2, 'Marlpit Ltd', ''],
    [3, '', ''],
    [4, 'Date|No.|Amount', ''],
    [5, '12/02/2025|3107|£1,140.00', ''],
    [6, '05/03/2025|3115|486.60', ''],
    [7, 'TOTAL||£1,626.60', ''],
  ];
  t.same(linesOf(text), expected, 'LF');
  t.same(linesOf(`\uFEFF${text.replaceAll('\n', '\r\n')}`), expected, 'a BOM and CRLF');
});

t.test('a cell holding a line break counts its lines; a title with a quote is read with the table', async (t) => {
  const text = 'Contacts\nName,Address,Postcode\nBob Ltd,"1 High St\nLeeds",LS1 1AA\nJo,"2 Low Rd",LS2 2BB\n';
  t.same(linesOf(text), [
    [1, 'Contacts', ''],
    [2, 'Name|Address|Postcode', ''],
    [3, 'Bob Ltd|1 High St\nLeeds|LS1 1AA', ''],
    [5, 'Jo|2 Low Rd|LS2 2BB', ''],
  ]);
  const quotedTitle = '"Report, 2025"\nName,Address,Postcode\nJo,"2 Low Rd",LS2 2BB\n';
  t.same(linesOf(quotedTitle), [
    [1, 'Report, 2025', ''],
    [2, 'Name|Address|Postcode', ''],
    [3, 'Jo|2 Low Rd|LS2 2BB', ''],
  ]);
});

t.test('a quote left open after title lines is refused naming the line it opened on', async (t) => {
  t.throws(() => readCsvRecords('Statement\nDate,Amount\n01/01/2025,"12.00\n02/01/2025,3.00\n', ','), {
    code: 'validation_error',
    field: 'file',
    message: /a quote opened on line 3 is never closed/,
  });
});
