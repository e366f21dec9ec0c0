import t, { type Test } from 'tap';
import fc from 'fast-check';
import { readDocuments, type DocumentFile } from '../../src/engine/imports/documents/read-documents.js';

/** Every data row comes out exactly once, and the counts say so. */
function conserved(t: Test, file: DocumentFile, dataRows: number): void {
  const indexes = [...file.rows, ...file.errors, ...file.ignored].map((r) => r.rowIndex).sort((a, b) => a - b);
  t.same(
    indexes,
    Array.from({ length: dataRows }, (_, i) => i),
    'every data row once',
  );
  t.equal(file.stats.totalRows, dataRows, 'total rows');
  t.equal(file.stats.validRows + file.stats.errorRows + file.stats.ignoredRows, file.stats.totalRows, 'valid + error + ignored = total');
  t.equal(file.stats.validRows, file.rows.length);
  t.equal(file.stats.errorRows, file.errors.length);
  t.equal(file.stats.ignoredRows, file.ignored.length);
}

const brief = (issues: DocumentFile['errors']): [number, string][] => issues.map((i) => [i.line, i.field]);

const xeroHeader =
  '*ContactName,EmailAddress,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,Total,TaxTotal,InvoiceAmountPaid,InvoiceAmountDue,Description,Quantity,UnitAmount,LineAmount,AccountCode,TaxType,TaxAmount,Currency,Type,Status';

t.test('Xero sales invoices: one row per line item, the further lines ignored, drafts, euros and credit notes left out', async (t) => {
  const text = [
    xeroHeader,
    // INV-0042: 800.00 + 4 × 100.00 = 1,200.00 net; VAT 160.00 + 80.00 = 240.00; total 1,440.00, nothing paid
    'Acme Ltd,accounts@acme.test,INV-0042,PO-881,14/03/2025,13/04/2025,"1,440.00",240.00,0.00,"1,440.00",Website design,1,800.00,800.00,200,20% (VAT on Income),160.00,GBP,Sales invoice,Awaiting Payment',
    'Acme Ltd,accounts@acme.test,INV-0042,PO-881,14/03/2025,13/04/2025,"1,440.00",240.00,0.00,"1,440.00",Hosting,4,100.00,400.00,200,20% (VAT on Income),80.00,GBP,Sales invoice,Awaiting Payment',
    // INV-0043 part paid: 600.00 total, 250.00 paid, 350.00 due
    'Bolt & Sons,,INV-0043,,01/02/2025,03/03/2025,600.00,100.00,250.00,350.00,Repairs,1,500.00,500.00,200,20% (VAT on Income),100.00,GBP,Sales invoice,Awaiting Payment',
    'Cobalt Studio,,INV-0044,,20/03/2025,19/04/2025,240.00,40.00,0.00,240.00,Consulting,2,100.00,200.00,200,20% (VAT on Income),40.00,GBP,Sales invoice,Draft',
    'Delta GmbH,,INV-0045,,21/03/2025,20/04/2025,500.00,0.00,0.00,500.00,Licence,1,500.00,500.00,200,No VAT,0.00,EUR,Sales invoice,Awaiting Payment',
    'Acme Ltd,,CN-0007,,25/03/2025,25/03/2025,120.00,20.00,0.00,120.00,Refund,1,100.00,100.00,200,20% (VAT on Income),20.00,GBP,Sales credit note,Awaiting Payment',
    // INV-0046: 3 × 100.00 = 300.00 net; VAT 60.00; total 360.00
    'Bolt & Sons,,INV-0046,,28/03/2025,27/04/2025,360.00,60.00,0.00,360.00,Parts,3,100.00,300.00,200,20% (VAT on Income),60.00,GBP,ACCREC,AUTHORISED',
    '',
  ].join('\n');
  const file = readDocuments(text, 'receivables');
  conserved(t, file, 7);
  t.same(file.columnMapping, {
    contact: '*ContactName',
    number: '*InvoiceNumber',
    reference: 'Reference',
    date: '*InvoiceDate',
    dueDate: '*DueDate',
    total: 'Total',
    paid: 'InvoiceAmountPaid',
    due: 'InvoiceAmountDue',
    currency: 'Currency',
    status: 'Status',
    type: 'Type',
    // the document's VAT; TaxAmount, the line's, is not it
    vat: 'TaxTotal',
  });
  t.same(file.rows, [
    {
      rowIndex: 0,
      line: 2,
      contactName: 'Acme Ltd',
      docNumber: 'INV-0042',
      reference: 'PO-881',
      docDate: '2025-03-14',
      dueDate: '2025-04-13',
      gross: 144000,
      paid: 0,
      outstanding: 144000,
      // TaxTotal 240.00
      vat: 24000,
      currency: 'GBP',
    },
    {
      rowIndex: 2,
      line: 4,
      contactName: 'Bolt & Sons',
      docNumber: 'INV-0043',
      reference: null,
      docDate: '2025-02-01',
      dueDate: '2025-03-03',
      gross: 60000,
      paid: 25000,
      outstanding: 35000,
      // TaxTotal 100.00
      vat: 10000,
      currency: 'GBP',
    },
    {
      rowIndex: 6,
      line: 8,
      contactName: 'Bolt & Sons',
      docNumber: 'INV-0046',
      reference: null,
      docDate: '2025-03-28',
      dueDate: '2025-04-27',
      gross: 36000,
      paid: 0,
      outstanding: 36000,
      // TaxTotal 60.00
      vat: 6000,
      currency: 'GBP',
    },
  ]);
  t.same(file.ignored, [
    { rowIndex: 1, line: 3, field: 'row', reason: 'another line of INV-0042 (row 2)' },
    { rowIndex: 3, line: 5, field: 'row', reason: 'status Draft: a draft; only outstanding documents are migrated' },
  ]);
  t.same(brief(file.errors), [
    [6, 'currency'],
    [7, 'row'],
  ]);
  t.match(file.errors[0]?.reason, /in EUR: only sterling documents are migrated/);
  t.match(file.errors[1]?.reason, /credit note: credit notes are not imported/);
  // gross 1,440.00 + 600.00 + 360.00 = 2,400.00; paid 250.00; outstanding 1,440.00 + 350.00 + 360.00 = 2,150.00
  t.same(file.stats, { totalRows: 7, validRows: 3, errorRows: 2, ignoredRows: 2, totalGross: 240000, totalPaid: 25000, totalOutstanding: 215000 });
  t.same(file.warnings, []);
});

t.test('Xero bills: supplier references may repeat across suppliers, not within one; an invoice in a bill file is refused', async (t) => {
  const text = [
    xeroHeader,
    // 1001 from Paper Mill: 10 × 15.00 = 150.00 net; VAT 30.00; total 180.00
    'Paper Mill Ltd,,1001,,03/03/2025,02/04/2025,180.00,30.00,0.00,180.00,Paper,10,15.00,150.00,429,20% (VAT on Expenses),30.00,GBP,Bill,Awaiting Payment',
    // 1001 from Ink Works: 96.00 total, 50.00 paid, 46.00 due
    'Ink Works,,1001,,05/03/2025,04/04/2025,96.00,16.00,50.00,46.00,Ink,2,40.00,80.00,429,20% (VAT on Expenses),16.00,GBP,Bill,Awaiting Payment',
    // 1002: 1,000.00 + 1,000.00 = 2,000.00 net; VAT 400.00; total 2,400.00 on two lines
    'Paper Mill Ltd,,1002,,10/03/2025,09/04/2025,"2,400.00",400.00,0.00,"2,400.00",Press,1,"1,000.00","1,000.00",429,20% (VAT on Expenses),200.00,GBP,ACCPAY,AUTHORISED',
    'Paper Mill Ltd,,1002,,10/03/2025,09/04/2025,"2,400.00",400.00,0.00,"2,400.00",Binding,1,"1,000.00","1,000.00",429,20% (VAT on Expenses),200.00,GBP,ACCPAY,AUTHORISED',
    'Acme Ltd,,INV-0042,,14/03/2025,13/04/2025,120.00,20.00,0.00,120.00,Design,1,100.00,100.00,200,20% (VAT on Income),20.00,GBP,Sales invoice,Awaiting Payment',
    'Paper Mill Ltd,,1001,,03/03/2025,02/04/2025,180.00,30.00,0.00,180.00,Paper,10,15.00,150.00,429,20% (VAT on Expenses),30.00,GBP,Bill,Awaiting Payment',
    'Ink Works,,1003,,31/03/2025,30/03/2025,48.00,8.00,0.00,48.00,Ink,1,40.00,40.00,429,20% (VAT on Expenses),8.00,GBP,Bill,Awaiting Payment',
    'Ink Works,,1004,,31/03/2025,30/04/2025,48.00,8.00,48.00,0.00,Ink,1,40.00,40.00,429,20% (VAT on Expenses),8.00,GBP,Bill,Paid',
  ].join('\n');
  const file = readDocuments(text, 'payables');
  conserved(t, file, 8);
  t.same(
    file.rows.map((r) => [r.line, r.contactName, r.docNumber, r.gross, r.paid, r.outstanding]),
    [
      [2, 'Paper Mill Ltd', '1001', 18000, 0, 18000],
      [3, 'Ink Works', '1001', 9600, 5000, 4600],
      [4, 'Paper Mill Ltd', '1002', 240000, 0, 240000],
    ],
  );
  t.same(brief(file.errors), [
    [6, 'row'],
    [7, 'number'],
    [8, 'dueDate'],
  ]);
  t.match(file.errors[0]?.reason, /type Sales invoice is the other side of the ledger/);
  t.equal(file.errors[1]?.reason, 'duplicate document number 1001 from Paper Mill Ltd (row 2)');
  t.equal(file.errors[2]?.reason, 'the due date 2025-03-30 is before the bill date 2025-03-31');
  t.same(
    file.ignored.map((i) => [i.line, i.reason]),
    [
      [5, 'another line of 1002 (row 4)'],
      [9, 'status Paid: paid; only outstanding documents are migrated'],
    ],
  );
  // gross 180.00 + 96.00 + 2,400.00 = 2,676.00; paid 50.00; outstanding 180.00 + 46.00 + 2,400.00 = 2,626.00
  t.same(file.stats, { totalRows: 8, validRows: 3, errorRows: 3, ignoredRows: 2, totalGross: 267600, totalPaid: 5000, totalOutstanding: 262600 });
});

t.test('a further Xero line whose totals or dates differ from its first line is an error naming the field', async (t) => {
  const text = [
    xeroHeader,
    'Acme Ltd,,INV-0050,,14/03/2025,13/04/2025,240.00,40.00,0.00,240.00,A,1,100.00,100.00,200,20% (VAT on Income),20.00,GBP,ACCREC,AUTHORISED',
    'Acme Ltd,,INV-0050,,14/03/2025,13/04/2025,240.00,40.00,100.00,140.00,B,1,100.00,100.00,200,20% (VAT on Income),20.00,GBP,ACCREC,AUTHORISED',
    'Acme Ltd,,INV-0050,,14/03/2025,13/04/2025,240.00,40.00,0.00,240.00,C,1,0.00,0.00,200,20% (VAT on Income),0.00,GBP,ACCREC,AUTHORISED',
    'Acme Ltd,,INV-0050,,15/03/2025,13/04/2025,240.00,40.00,0.00,240.00,D,1,0.00,0.00,200,20% (VAT on Income),0.00,GBP,ACCREC,AUTHORISED',
  ].join('\n');
  const file = readDocuments(text, 'receivables');
  conserved(t, file, 4);
  t.same(file.errors, [
    { rowIndex: 1, line: 3, field: 'paid', reason: 'another row of INV-0050 (row 2) with a different amount paid: £100.00 here, £0.00 there' },
    { rowIndex: 3, line: 5, field: 'date', reason: "another row of INV-0050 (row 2) with a different date: '15/03/2025' here, '14/03/2025' there" },
  ]);
  t.same(file.ignored, [{ rowIndex: 2, line: 4, field: 'row', reason: 'another line of INV-0050 (row 2)' }]);
  // one document of 240.00, nothing paid
  t.same(file.stats, { totalRows: 4, validRows: 1, errorRows: 2, ignoredRows: 1, totalGross: 24000, totalPaid: 0, totalOutstanding: 24000 });
});

const freeAgentInvoices = [
  'Contact,Reference,Dated On,Due On,Currency,Net Value,Sales Tax Value,Total Value,Paid Value,Due Value,Status',
  'Acme Ltd,INV-101,2025-03-14,2025-04-13,GBP,1000.00,200.00,1200.00,0.00,1200.00,Open',
  // part paid: 600.00 total, 200.00 paid, 400.00 due
  'Bolt & Sons,INV-102,2025-02-01,2025-03-03,GBP,500.00,100.00,600.00,200.00,400.00,Part Paid',
  'Cobalt Studio,INV-103,2025-01-10,2025-02-09,GBP,250.00,50.00,300.00,0.00,300.00,Overdue',
  'Acme Ltd,INV-104,2025-03-20,2025-04-19,GBP,100.00,20.00,120.00,0.00,120.00,Draft',
  'Bolt & Sons,INV-105,2025-03-21,2025-04-20,GBP,100.00,20.00,120.00,0.00,120.00,Cancelled',
  'Cobalt Studio,INV-106,2025-03-01,2025-03-31,GBP,400.00,80.00,480.00,480.00,0.00,Paid',
  'Delta Designs,INV-107,2025-03-25,2025-04-24,GBP,50.00,10.00,60.00,60.00,0.00,Open',
];

function checkFreeAgentInvoices(t: Test, file: DocumentFile): void {
  conserved(t, file, 7);
  t.same(file.columnMapping, {
    contact: 'Contact',
    number: 'Reference',
    date: 'Dated On',
    dueDate: 'Due On',
    total: 'Total Value',
    paid: 'Paid Value',
    due: 'Due Value',
    currency: 'Currency',
    status: 'Status',
    vat: 'Sales Tax Value',
  });
  t.same(
    file.rows.map((r) => [r.line, r.docNumber, r.reference, r.docDate, r.dueDate, r.gross, r.paid, r.outstanding]),
    [
      [2, 'INV-101', null, '2025-03-14', '2025-04-13', 120000, 0, 120000],
      [3, 'INV-102', null, '2025-02-01', '2025-03-03', 60000, 20000, 40000],
      [4, 'INV-103', null, '2025-01-10', '2025-02-09', 30000, 0, 30000],
    ],
  );
  t.same(
    file.ignored.map((i) => [i.line, i.field, i.reason]),
    [
      [5, 'row', 'status Draft: a draft; only outstanding documents are migrated'],
      [6, 'row', 'status Cancelled: cancelled; only outstanding documents are migrated'],
      [7, 'row', 'status Paid: paid; only outstanding documents are migrated'],
      [8, 'due', 'nothing outstanding: the invoice is paid in full (£60.00)'],
    ],
  );
  // gross 1,200.00 + 600.00 + 300.00 = 2,100.00; paid 200.00; outstanding 1,200.00 + 400.00 + 300.00 = 1,900.00
  t.same(file.stats, { totalRows: 7, validRows: 3, errorRows: 0, ignoredRows: 4, totalGross: 210000, totalPaid: 20000, totalOutstanding: 190000 });
}

t.test('FreeAgent invoices: Reference is the number; Draft, Cancelled, Paid and paid-in-full rows are ignored with their reason', async (t) => {
  checkFreeAgentInvoices(t, readDocuments(freeAgentInvoices.join('\n') + '\n', 'receivables'));
});

t.test('a UTF-8 BOM, CRLF line ends and blank lines read the same as the plain file; blank lines are not rows', async (t) => {
  const [header, ...rows] = freeAgentInvoices;
  const text = '\uFEFF' + [header, '', ...rows.slice(0, 3), ',,,,,,,,,,', ...rows.slice(3)].join('\r\n') + '\r\n\r\n';
  const file = readDocuments(text, 'receivables');
  t.equal(file.stats.totalRows, 7);
  // The blank line after the header moves every row one line down: the lines differ, nothing else does.
  t.same(
    file.rows.map((r) => r.line),
    [3, 4, 5],
  );
  const plain = readDocuments(freeAgentInvoices.join('\n'), 'receivables');
  const withoutLines = (f: DocumentFile): unknown => ({
    ...f,
    rows: f.rows.map((r) => ({ ...r, line: 0 })),
    ignored: f.ignored.map((r) => ({ ...r, line: 0 })),
  });
  t.same(withoutLines(file), withoutLines(plain));
  checkFreeAgentInvoices(t, plain);
});

t.test('FreeAgent bills: no currency column means sterling; credit notes, overpaid and mismatched rows are errors', async (t) => {
  const text = [
    'Contact,Reference,Dated On,Due On,Total Value,Paid Value,Due Value,Status',
    'Paper Mill Ltd,PM-5531,2025-03-03,2025-04-02,180.00,0.00,180.00,Open',
    // part paid: 96.00 total, 40.00 paid, 56.00 due
    'Ink Works,IW-77,2025-02-15,2025-03-17,96.00,40.00,56.00,Overdue',
    'Ink Works,IW-78,2025-03-30,2025-04-29,-24.00,0.00,-24.00,Open',
    // 80.00 paid of 75.50
    'Office Hub,OH-9,2025-03-31,2025-04-30,75.50,80.00,-4.50,Open',
    // 20.00 paid + 50.00 due = 70.00, not the 75.50 total
    'Office Hub,OH-10,2025-03-31,2025-04-30,75.50,20.00,50.00,Open',
    'Office Hub,OH-11,2025-03-31,2025-04-30,75.50,0.00,75.50,Draft',
  ].join('\n');
  const file = readDocuments(text, 'payables');
  conserved(t, file, 6);
  t.same(
    file.rows.map((r) => [r.docNumber, r.currency, r.gross, r.paid, r.outstanding]),
    [
      ['PM-5531', 'GBP', 18000, 0, 18000],
      ['IW-77', 'GBP', 9600, 4000, 5600],
    ],
  );
  t.same(file.errors, [
    {
      rowIndex: 2,
      line: 4,
      field: 'total',
      reason: 'a credit note (total -£24.00): credit notes are not imported; allocate it in the source before exporting, or enter it after the migration',
    },
    { rowIndex: 3, line: 5, field: 'paid', reason: 'the amount paid £80.00 is more than the total £75.50' },
    { rowIndex: 4, line: 6, field: 'paid', reason: 'the amount paid £20.00 and the amount due £50.00 do not add up to the total £75.50' },
  ]);
  t.same(brief(file.ignored), [[7, 'row']]);
  // gross 180.00 + 96.00 = 276.00; paid 40.00; outstanding 180.00 + 56.00 = 236.00
  t.same(file.stats, { totalRows: 6, validRows: 2, errorRows: 3, ignoredRows: 1, totalGross: 27600, totalPaid: 4000, totalOutstanding: 23600 });
});

const quickBooksInvoices = [
  'Open Invoices',
  'Harbour Works Ltd',
  'As of 31 March 2025',
  '',
  'Date,Transaction type,No.,Customer,Due date,Amount,Open balance',
  'Acme Ltd,,,,,,',
  '14/03/2025,Invoice,1042,Acme Ltd,13/04/2025,"£1,440.00","£1,440.00"',
  // part paid: 600.00 total, 150.00 open, so 450.00 paid
  '20/03/2025,Invoice,1045,Acme Ltd,19/04/2025,£600.00,£150.00',
  'Total for Acme Ltd,,,,,"£2,040.00","£1,590.00"',
  'Bolt & Sons,,,,,,',
  '05/02/2025,Invoice,1039,Bolt & Sons,07/03/2025,£360.00,£360.00',
  '28/03/2025,Credit Note,CN-3,Bolt & Sons,28/03/2025,-£60.00,-£60.00',
  'Total for Bolt & Sons,,,,,£300.00,£300.00',
  'TOTAL,,,,,"£2,340.00","£1,890.00"',
  '',
  '"Accrual basis Monday, 7 April 2025 10:15 AM GMT+01:00"',
].join('\n');

t.test('QuickBooks open invoices: title lines, grouping rows, £ amounts, total rows and the footer', async (t) => {
  const file = readDocuments(quickBooksInvoices, 'receivables');
  // lines 6–14 and 16 are the data rows: 10
  conserved(t, file, 10);
  t.same(file.columnMapping, {
    contact: 'Customer',
    number: 'No.',
    date: 'Date',
    dueDate: 'Due date',
    total: 'Amount',
    due: 'Open balance',
    type: 'Transaction type',
  });
  t.same(
    file.rows.map((r) => [r.line, r.contactName, r.docNumber, r.docDate, r.dueDate, r.gross, r.paid, r.outstanding]),
    [
      [7, 'Acme Ltd', '1042', '2025-03-14', '2025-04-13', 144000, 0, 144000],
      [8, 'Acme Ltd', '1045', '2025-03-20', '2025-04-19', 60000, 45000, 15000],
      [11, 'Bolt & Sons', '1039', '2025-02-05', '2025-03-07', 36000, 0, 36000],
    ],
  );
  t.same(brief(file.errors), [[12, 'row']]);
  t.same(
    file.ignored.map((i) => [i.line, i.reason]),
    [
      [6, 'a heading or footer line (Acme Ltd), not an invoice'],
      [9, 'a total row (Total for Acme Ltd), not an invoice'],
      [10, 'a heading or footer line (Bolt & Sons), not an invoice'],
      [13, 'a total row (Total for Bolt & Sons), not an invoice'],
      [14, 'a total row (TOTAL), not an invoice'],
      [16, 'a heading or footer line (Accrual basis Monday, 7 April 2025 10:15 AM GMT+01:00), not an invoice'],
    ],
  );
  // gross 1,440.00 + 600.00 + 360.00 = 2,400.00; paid 450.00; outstanding 1,440.00 + 150.00 + 360.00 = 1,950.00
  t.same(file.stats, { totalRows: 10, validRows: 3, errorRows: 1, ignoredRows: 6, totalGross: 240000, totalPaid: 45000, totalOutstanding: 195000 });
});

t.test('QuickBooks unpaid bills: the Past due column is not an amount; a bill without a number is an error', async (t) => {
  const text = [
    'Unpaid Bills',
    'Harbour Works Ltd',
    'As of 31 March 2025',
    '',
    'Date,Transaction type,No.,Supplier,Due date,Past due,Amount,Open balance',
    '03/03/2025,Bill,PM-5531,Paper Mill Ltd,02/04/2025,,£180.00,£180.00',
    // part paid: 96.00 total, 56.00 open, so 40.00 paid
    '15/02/2025,Bill,IW-77,Ink Works,17/03/2025,14,£96.00,£56.00',
    '01/03/2025,Bill,,Office Hub,31/03/2025,,£75.50,£75.50',
    'TOTAL,,,,,,£351.50,£311.50',
  ].join('\n');
  const file = readDocuments(text, 'payables');
  conserved(t, file, 4);
  t.same(
    file.rows.map((r) => [r.contactName, r.docNumber, r.gross, r.paid, r.outstanding]),
    [
      ['Paper Mill Ltd', 'PM-5531', 18000, 0, 18000],
      ['Ink Works', 'IW-77', 9600, 4000, 5600],
    ],
  );
  t.same(file.errors, [{ rowIndex: 2, line: 8, field: 'number', reason: 'no bill number' }]);
  t.same(brief(file.ignored), [[9, 'row']]);
  // gross 180.00 + 96.00 = 276.00; paid 40.00; outstanding 180.00 + 56.00 = 236.00
  t.same(file.stats, { totalRows: 4, validRows: 2, errorRows: 1, ignoredRows: 1, totalGross: 27600, totalPaid: 4000, totalOutstanding: 23600 });
});

t.test('a file of the other side is refused as a whole, naming file', async (t) => {
  t.throws(() => readDocuments(quickBooksInvoices, 'payables'), {
    code: 'validation_error',
    field: 'file',
    message: /contact column is Customer, so it lists customers: it looks like sales invoices, not bills/,
  });
  t.throws(() => readDocuments('Date,No.,Supplier,Amount\n01/03/2025,7,Ink Works,£5.00\n', 'receivables'), { code: 'validation_error', field: 'file' });
});

t.test('no header naming a contact, a number, a date and a total: refused naming file; so is an empty file', async (t) => {
  t.throws(() => readDocuments('Contact,Date,Total\nAcme Ltd,14/03/2025,10.00\n', 'receivables'), {
    code: 'validation_error',
    field: 'file',
    message: /no header row naming a contact, a document number, a date and a total/,
  });
  t.throws(() => readDocuments('\uFEFF\r\n\r\n', 'receivables'), { code: 'validation_error', field: 'file', message: 'the file is empty' });
});

t.test('broken rows are errors naming their field; the good rows still read', async (t) => {
  const text = [
    'Contact,Invoice Number,Date,Due Date,Total,Paid',
    'Acme Ltd,INV-1,14/03/2025,13/04/2025,120.00,0.00',
    'Acme Ltd,INV-2,31/02/2025,13/04/2025,120.00,0.00',
    'Acme Ltd,INV-3,14/03/2025,13/04/2025,12O.00,0.00',
    ',INV-4,14/03/2025,13/04/2025,120.00,0.00',
    'Acme Ltd,,14/03/2025,13/04/2025,120.00,0.00',
    'Acme Ltd,INV-5,14/03/2025,13/04/2025,1,200.00,0.00',
    'Acme Ltd,INV-6,14/03/2025,soon,120.00,0.00',
    'Acme Ltd,INV-7,14/03/2025,,120.00,abc',
    // no due date: due on the invoice date; no amount paid: nothing paid
    'Acme Ltd,INV-8,14/03/2025,,120.00,',
    'Acme Ltd,INV-9',
  ].join('\n');
  const file = readDocuments(text, 'receivables');
  conserved(t, file, 10);
  t.same(
    file.rows.map((r) => [r.docNumber, r.docDate, r.dueDate, r.gross, r.paid, r.outstanding]),
    [
      ['INV-1', '2025-03-14', '2025-04-13', 12000, 0, 12000],
      ['INV-8', '2025-03-14', '2025-03-14', 12000, 0, 12000],
    ],
  );
  t.same(
    file.errors.map((e) => [e.line, e.field, e.reason]),
    [
      [3, 'date', '31/02/2025 is not a date (the dates in this file read as DD/MM/YYYY)'],
      [4, 'total', 'the total 12O.00 is not an amount'],
      [5, 'contact', 'no contact name'],
      [6, 'number', 'no invoice number'],
      [7, 'row', 'the row has 7 cells but the header 6: an amount such as 1,200.00 not in quotes splits into two cells'],
      [8, 'dueDate', 'soon is not a date (the dates in this file read as DD/MM/YYYY)'],
      [9, 'paid', 'the amount paid abc is not an amount'],
      [11, 'row', 'the row has 2 cells but the header 6: cells are missing'],
    ],
  );
  // 120.00 + 120.00 = 240.00, nothing paid
  t.same(file.stats, { totalRows: 10, validRows: 2, errorRows: 8, ignoredRows: 0, totalGross: 24000, totalPaid: 0, totalOutstanding: 24000 });
});

t.test('duplicates: a repeated row is counted once, a number used by another document is an error naming the first row', async (t) => {
  const text = [
    'Contact,Number,Date,Due Date,Total,Amount Paid,Amount Due',
    'Acme Ltd,INV-7,01/03/2025,31/03/2025,100.00,0.00,100.00',
    'Acme Ltd,INV-7,01/03/2025,31/03/2025,100.00,0.00,100.00',
    'Bolt Ltd,INV-7,01/03/2025,31/03/2025,100.00,0.00,100.00',
    'Acme Ltd,INV-8,02/03/2025,01/04/2025,50.00,0.00,50.00',
    'ACME LIMITED,INV-8,02/03/2025,01/04/2025,55.00,0.00,55.00',
    'Acme Ltd,inv-7,01/03/2025,31/03/2025,100.00,0.00,100.00',
    'Cobalt Ltd,INV-9,03/03/2025,02/04/2025,70.00,0.00,70.00',
  ].join('\n');
  const file = readDocuments(text, 'receivables');
  conserved(t, file, 7);
  t.same(
    file.rows.map((r) => [r.line, r.docNumber]),
    [
      [2, 'INV-7'],
      [5, 'INV-8'],
      [8, 'INV-9'],
    ],
  );
  t.same(file.ignored, [{ rowIndex: 1, line: 3, field: 'row', reason: 'a repeat of INV-7, the same document (row 2)' }]);
  t.same(
    file.errors.map((e) => [e.line, e.field, e.reason]),
    [
      [4, 'number', 'duplicate document number INV-7 (row 2)'],
      [6, 'total', 'another row of INV-8 (row 5) with a different total: £55.00 here, £50.00 there'],
      [7, 'number', 'duplicate document number inv-7 (row 2)'],
    ],
  );
  // 100.00 + 50.00 + 70.00 = 220.00, nothing paid
  t.same(file.stats, { totalRows: 7, validRows: 3, errorRows: 3, ignoredRows: 1, totalGross: 22000, totalPaid: 0, totalOutstanding: 22000 });
});

t.test('a duplicate that is broken too keeps both reasons', async (t) => {
  const text = ['Contact,Number,Date,Total', 'Acme Ltd,INV-1,01/03/2025,10.00', 'Bolt Ltd,INV-2,01/03/2025,10.00', 'Cobalt Ltd,INV-1,someday,10.00'].join('\n');
  const file = readDocuments(text, 'receivables');
  conserved(t, file, 3);
  t.same(file.errors, [
    {
      rowIndex: 2,
      line: 4,
      field: 'number',
      reason: 'duplicate document number INV-1 (row 2); and someday is not a date (the dates in this file read as DD/MM/YYYY)',
    },
  ]);
});

t.test('only the amount due, or only the amount paid, gives the other; no total column takes the amount due as the whole', async (t) => {
  // 100.00 total, 40.00 outstanding: 60.00 paid
  const dueOnly = readDocuments('Contact,Number,Date,Total,Outstanding\nAcme Ltd,7,01/03/2025,100.00,40.00\n', 'receivables');
  conserved(t, dueOnly, 1);
  t.same([dueOnly.rows[0]?.gross, dueOnly.rows[0]?.paid, dueOnly.rows[0]?.outstanding], [10000, 6000, 4000]);
  // 01/03/2025 reads as 1 March or 3 January: the file is read day first and says so.
  t.same(dueOnly.warnings, [
    'no due date column: each document is due on its own date',
    'every date in the file reads day first or month first alike: read day first (DD/MM/YYYY), as UK exports write them, so 01/03/2025 is 2025-03-01; a file written month first needs its dates as YYYY-MM-DD',
  ]);
  t.equal(dueOnly.rows[0]?.dueDate, '2025-03-01');

  // 100.00 total, 30.00 paid: 70.00 outstanding
  const paidOnly = readDocuments('Contact,Number,Date,Due Date,Total,Amount Paid\nAcme Ltd,7,01/03/2025,31/03/2025,100.00,30.00\n', 'receivables');
  conserved(t, paidOnly, 1);
  t.same([paidOnly.rows[0]?.gross, paidOnly.rows[0]?.paid, paidOnly.rows[0]?.outstanding], [10000, 3000, 7000]);

  const balances = readDocuments(
    'Contact,Number,Date,Due Date,Balance\nAcme Ltd,7,01/03/2025,31/03/2025,"1,250.00"\nAcme Ltd,8,02/03/2025,01/04/2025,0.00\n',
    'receivables',
  );
  conserved(t, balances, 2);
  // 1,250.00 owed, taken as the whole invoice
  t.same([balances.rows[0]?.gross, balances.rows[0]?.paid, balances.rows[0]?.outstanding], [125000, 0, 125000]);
  t.same(balances.ignored, [{ rowIndex: 1, line: 3, field: 'due', reason: "nothing outstanding: the invoice's total is £0.00" }]);
  t.same(balances.warnings, ["no total column: each document's total is taken as its amount due (Balance), nothing paid"]);
});

t.test('the date format is chosen once for the file', async (t) => {
  // 13/02 settles DD/MM, so 01/02/2025 is 1 February on every row
  const uk = readDocuments('Contact,Number,Date,Due Date,Total\nA,1,01/02/2025,03/02/2025,10.00\nA,2,05/02/2025,13/02/2025,10.00\n', 'receivables');
  conserved(t, uk, 2);
  t.same(
    uk.rows.map((r) => [r.docDate, r.dueDate]),
    [
      ['2025-02-01', '2025-02-03'],
      ['2025-02-05', '2025-02-13'],
    ],
  );
  // 01/30/2025 reads only month first, so 01/02/2025 is 2 January here
  const us = readDocuments('Contact,Number,Date,Due Date,Total\nA,1,01/02/2025,01/30/2025,10.00\n', 'receivables');
  conserved(t, us, 1);
  t.same([us.rows[0]?.docDate, us.rows[0]?.dueDate], ['2025-01-02', '2025-01-30']);
  // Every day 12 or less, dates and due dates a month apart: day first, as a UK file means it
  const ambiguous = readDocuments('Contact,Number,Date,Due Date,Total\nA,1,01/02/2025,03/02/2025,10.00\nA,2,02/03/2025,04/03/2025,10.00\n', 'receivables');
  conserved(t, ambiguous, 2);
  t.same(
    ambiguous.rows.map((r) => [r.docDate, r.dueDate]),
    [
      ['2025-02-01', '2025-02-03'],
      ['2025-03-02', '2025-03-04'],
    ],
  );
  t.match(ambiguous.warnings, [/read day first \(DD\/MM\/YYYY\)/]);
  t.same(uk.warnings, [], 'a file that decides says nothing of it');
  // Sorted by contact, not date: month first they would run 2 Jan, 1 Feb, 1 Mar in order, which decides nothing.
  const sorted = readDocuments('Contact,Number,Date,Total\nA,1,01/02/2025,10.00\nB,2,02/01/2025,10.00\nC,3,03/01/2025,10.00\n', 'receivables');
  t.same(
    sorted.rows.map((r) => r.docDate),
    ['2025-02-01', '2025-01-02', '2025-01-03'],
  );
});

t.test('property: any mix of rows, blank lines, BOM and line ends keeps every data row exactly once', async (t) => {
  const contacts = ['Acme Ltd', 'Bolt & Sons', 'Cobalt Studio'];
  const rowArb = fc.oneof(
    fc.record({
      kind: fc.constant('document' as const),
      contact: fc.constantFrom(...contacts),
      number: fc.integer({ min: 1, max: 6 }),
      total: fc.integer({ min: -500, max: 50000 }),
      paid: fc.integer({ min: -10, max: 50000 }),
      status: fc.constantFrom('Open', 'Overdue', 'Part Paid', 'Draft', 'Paid', ''),
      day: fc.integer({ min: 1, max: 31 }),
    }),
    fc.constant({ kind: 'blank' as const }),
    fc.constant({ kind: 'total' as const }),
    fc.constant({ kind: 'heading' as const }),
    fc.string({ maxLength: 30 }).map((junk) => ({ kind: 'junk' as const, junk })),
  );
  const pounds = (pence: number): string => `${pence < 0 ? '-' : ''}${Math.floor(Math.abs(pence) / 100)}.${String(Math.abs(pence) % 100).padStart(2, '0')}`;
  fc.assert(
    fc.property(fc.array(rowArb, { maxLength: 25 }), fc.boolean(), fc.constantFrom('\n', '\r\n'), (rows, bom, eol) => {
      const lines = ['Contact,Reference,Dated On,Due On,Total Value,Paid Value,Status'];
      let dataRows = 0;
      for (const row of rows) {
        if (row.kind === 'blank') {
          lines.push('');
          continue;
        }
        dataRows++;
        if (row.kind === 'document') {
          const date = `2025-03-${String(row.day).padStart(2, '0')}`;
          lines.push(`"${row.contact}",INV-${row.number},${date},2025-04-30,${pounds(row.total)},${pounds(row.paid)},${row.status}`);
        } else if (row.kind === 'total') lines.push('TOTAL,,,,100.00,0.00,');
        else if (row.kind === 'heading') lines.push('Acme Ltd,,,,,,');
        // A junk cell with a quote or line break may span lines; quoting it keeps it one record of its own.
        else lines.push(`"${row.junk.replaceAll('"', '""')}",x,y`);
      }
      const file = readDocuments((bom ? '\uFEFF' : '') + lines.join(eol) + eol, 'receivables');
      const indexes = [...file.rows, ...file.errors, ...file.ignored].map((r) => r.rowIndex).sort((a, b) => a - b);
      if (indexes.length !== file.stats.totalRows || indexes.some((v, i) => v !== i)) return false;
      if (file.stats.totalRows !== dataRows) return false;
      let gross = 0;
      for (const r of file.rows) {
        if (r.gross <= 0 || r.paid < 0 || r.outstanding <= 0 || r.gross - r.paid !== r.outstanding) return false;
        gross += r.gross;
      }
      return gross === file.stats.totalGross && file.stats.validRows + file.stats.errorRows + file.stats.ignoredRows === dataRows;
    }),
    { numRuns: 200 },
  );
  t.pass('row conservation held on every generated file');
});

t.test(
  "a Xero line-item file with only TaxAmount reads no VAT (it is each line's), with a warning; a further line with another TaxTotal is an error naming vat",
  async (t) => {
    const lineOnly = [
      '*ContactName,*InvoiceNumber,*InvoiceDate,*DueDate,Total,Description,LineAmount,TaxAmount',
      // INV-1: lines 100.00 (VAT 20.00) + 50.00 (VAT 10.00) = 180.00 gross; the first line's 20.00 is not the document's 30.00
      'Acme Ltd,INV-1,01/03/2025,31/03/2025,180.00,Design,100.00,20.00',
      'Acme Ltd,INV-1,01/03/2025,31/03/2025,180.00,Hosting,50.00,10.00',
    ].join('\n');
    const file = readDocuments(lineOnly, 'receivables');
    conserved(t, file, 2);
    t.equal(file.columnMapping.vat, undefined);
    t.equal(file.rows[0]?.vat, null);
    t.match(file.warnings, [/TaxAmount is each line's VAT, not the document's/]);

    const differing = [
      xeroHeader,
      'Acme Ltd,,INV-2,,01/03/2025,31/03/2025,180.00,30.00,0.00,180.00,Design,1,100.00,100.00,200,20% (VAT on Income),20.00,GBP,Sales invoice,Awaiting Payment',
      'Acme Ltd,,INV-2,,01/03/2025,31/03/2025,180.00,25.00,0.00,180.00,Hosting,1,50.00,50.00,200,20% (VAT on Income),10.00,GBP,Sales invoice,Awaiting Payment',
    ].join('\n');
    const other = readDocuments(differing, 'receivables');
    conserved(t, other, 2);
    t.equal(other.rows[0]?.vat, 3000);
    t.same(brief(other.errors), [[3, 'vat']]);
    t.match(other.errors[0]?.reason, /different VAT: £25\.00 here, £30\.00 there/);
  },
);
