import t, { type Test } from 'tap';
import { readContactFile, type ContactFile, type ContactRow } from '../../src/engine/imports/contacts/read-contacts.js';

/** Every data row comes out exactly once, as a contact or a rejection: `dataRows` counted by hand from the text. */
function conserved(t: Test, file: ContactFile, dataRows: number): void {
  t.equal(file.totalRows, dataRows, 'totalRows counts the data rows');
  t.equal(file.rows.length + file.rejected.length, dataRows, 'rows + rejected = data rows');
  const seen = [...file.rows.map((r) => r.rowIndex), ...file.rejected.map((r) => r.rowIndex)].sort((a, b) => a - b);
  t.same(
    seen,
    Array.from({ length: dataRows }, (_, i) => i),
    'each row index once',
  );
}

const byName = (file: ContactFile, name: string): ContactRow => {
  const row = file.rows.find((r) => r.name === name);
  if (!row) throw new Error(`no row ${name}`);
  return row;
};

const xeroHeader =
  '*ContactName,AccountNumber,EmailAddress,FirstName,LastName,POAttentionTo,POAddressLine1,POAddressLine2,POCity,PORegion,POPostalCode,POCountry,PhoneNumber,MobileNumber,TaxNumber,CompanyNumber,DueDateSalesDay,DueDateSalesTerm,IsCustomer,IsSupplier';

t.test('Xero: TaxNumber is the VAT number, IsCustomer/IsSupplier the type, DueDateSalesDay the terms', async (t) => {
  const text = [
    xeroHeader,
    'Acme Widgets Ltd,ACME01,Accounts@AcmeWidgets.co.uk,Jo,Bloggs,Accounts,1 High Street,Unit 4,London,Greater London,sw1a1aa,United Kingdom,020 7946 0001,,GB 123 4567 89,1234567,30,DAYSAFTERBILLDATE,Yes,No',
    'Northern Paper Co,,orders@northernpaper.co.uk,,,,,,Leeds,,LS1  4AP,United Kingdom,,07700 900123,,SC12345,,,No,Yes',
    'Both Ways LLP,,hello@bothways.co.uk,,,,,,,,,,,,,,20,OFFOLLOWINGMONTH,Yes,Yes',
    '',
  ].join('\n');
  const file = readContactFile(text);
  conserved(t, file, 3);
  t.same(file.rejected, []);
  t.same(file.columnMapping, {
    name: '*ContactName',
    email: 'EmailAddress',
    phone: 'PhoneNumber',
    addressLine1: 'POAddressLine1',
    addressLine2: 'POAddressLine2',
    city: 'POCity',
    region: 'PORegion',
    postalCode: 'POPostalCode',
    country: 'POCountry',
    vatNumber: 'TaxNumber',
    companyNumber: 'CompanyNumber',
    paymentTerms: 'DueDateSalesDay',
    contactType: 'IsCustomer + IsSupplier',
  });
  t.same(byName(file, 'Acme Widgets Ltd'), {
    rowIndex: 0,
    line: 2,
    name: 'Acme Widgets Ltd',
    company: null,
    email: 'accounts@acmewidgets.co.uk',
    phone: '020 7946 0001',
    addressLine1: '1 High Street',
    addressLine2: 'Unit 4',
    city: 'London',
    region: 'Greater London',
    postalCode: 'SW1A 1AA',
    country: 'United Kingdom',
    vatNumber: 'GB123456789',
    companyNumber: '01234567',
    contactType: 'customer',
    paymentTerms: 30,
    warnings: [],
  });
  const paper = byName(file, 'Northern Paper Co');
  t.equal(paper.phone, '07700 900123', 'the mobile when there is no phone');
  t.equal(paper.postalCode, 'LS1 4AP');
  t.equal(paper.companyNumber, 'SC012345', 'two letters and six digits, zero-padded');
  t.equal(paper.contactType, 'supplier');
  t.equal(paper.paymentTerms, null);
  const both = byName(file, 'Both Ways LLP');
  t.equal(both.contactType, 'both');
  t.equal(both.paymentTerms, null, 'a day of the following month is not a number of days');
  t.match(both.warnings, [/OFFOLLOWINGMONTH/]);
});

t.test('FreeAgent: the name is the Organisation, else First Name + Last Name', async (t) => {
  const text = [
    'Organisation,First Name,Last Name,Email,Phone Number,Address 1,Address 2,Town,Region,Postcode,Country,VAT Registration Number,Company Registration Number,Default Payment Terms (days),Contact Type',
    'Brightside Design Ltd,Sam,Patel,sam@brightside.design,0161 496 0000,2 Mill Lane,,Manchester,,M1 1AE,United Kingdom,GB987654321,09876543,14,Client',
    ',Alex,Morgan,alex.morgan@gmail.com,,,,Bristol,,BS1 5TR,United Kingdom,,,0,Supplier',
    'Corner Shop,,,,,,,,,,,N/A,,,',
  ].join('\n');
  const file = readContactFile(text);
  conserved(t, file, 3);
  t.same(file.rejected, []);
  t.equal(file.columnMapping.name, 'Organisation');
  t.equal(file.columnMapping.paymentTerms, 'Default Payment Terms (days)');
  t.equal(file.columnMapping.vatNumber, 'VAT Registration Number');
  t.equal(file.columnMapping.contactType, 'Contact Type');
  const design = byName(file, 'Brightside Design Ltd');
  t.match(design, { email: 'sam@brightside.design', city: 'Manchester', postalCode: 'M1 1AE', vatNumber: 'GB987654321', companyNumber: '09876543' });
  t.match(design, { paymentTerms: 14, contactType: 'customer' });
  t.match(byName(file, 'Alex Morgan'), { rowIndex: 1, line: 3, contactType: 'supplier', paymentTerms: 0 });
  t.match(byName(file, 'Corner Shop'), { vatNumber: null, contactType: null, paymentTerms: null }, 'N/A in the VAT column is no number');
});

t.test('QuickBooks: the header below the title, Type Customer/Supplier, Terms "Net 30"', async (t) => {
  const text = [
    'Contact List',
    '',
    'Name,Type,Company name,Email,Phone,Street,City,County,Postcode,Country,VAT registration no.,Terms',
    'Harbour Cafe,Customer,Harbour Cafe Ltd,info@harbourcafe.co.uk,01632 960000,3 Quay Road,Plymouth,Devon,PL1 2AB,United Kingdom,GB111222333,Net 30',
    'Office Supplies Direct,Supplier,,,,,,,,,,Net 15',
    'Walk-in Customer,Customer,,,,,,,,,,Due on receipt',
    '"Smith, Jones & Co",Customer,,accounts@smithjones.co.uk,,,,,,,,',
  ].join('\n');
  const file = readContactFile(text);
  conserved(t, file, 4);
  t.same(file.rejected, []);
  t.match(file.columnMapping, {
    name: 'Name',
    company: 'Company name',
    region: 'County',
    vatNumber: 'VAT registration no.',
    paymentTerms: 'Terms',
    contactType: 'Type',
  });
  t.match(byName(file, 'Harbour Cafe'), { rowIndex: 0, line: 4, company: 'Harbour Cafe Ltd', region: 'Devon', paymentTerms: 30, contactType: 'customer' });
  t.match(byName(file, 'Office Supplies Direct'), { paymentTerms: 15, contactType: 'supplier' });
  t.match(byName(file, 'Walk-in Customer'), { paymentTerms: 0 });
  t.match(byName(file, 'Smith, Jones & Co'), { rowIndex: 3, line: 7 });
});

t.test('a UTF-8 BOM, CRLF line endings and blank lines', async (t) => {
  const text = '\uFEFFName,Email,Address,Postcode\r\n' + 'Acme Ltd,a@acme.co.uk,1 High St,sw1a 1aa\r\n' + '\r\n' + 'Beta Ltd,b@beta.co.uk,,\r\n' + ',,,\r\n';
  const file = readContactFile(text);
  // Data rows: Acme (line 2) and Beta (line 4); line 3 and the line of empty cells (5) are blank.
  conserved(t, file, 2);
  t.equal(file.columnMapping.name, 'Name', 'the BOM is not part of the first header');
  t.match(file.rows, [
    { rowIndex: 0, line: 2, name: 'Acme Ltd', email: 'a@acme.co.uk', addressLine1: '1 High St', postalCode: 'SW1A 1AA' },
    { rowIndex: 1, line: 4, name: 'Beta Ltd', postalCode: null },
  ]);
});

t.test('a quoted line break in an address is one row, its lines joined by a space', async (t) => {
  const file = readContactFile('Name,Address,Postcode\nAcme Ltd,"1 High St\nFloor 2",sw1a 1aa\n\nBeta Ltd,,\n');
  conserved(t, file, 2);
  t.match(file.rows, [
    { rowIndex: 0, line: 2, addressLine1: '1 High St Floor 2' },
    { rowIndex: 1, line: 5, name: 'Beta Ltd' },
  ]);
});

t.test('broken rows are rejected with their field and reason; the others are read', async (t) => {
  const text = [
    'Name,Email,VAT Number,Company Number,Payment Terms,Contact Type',
    'Good One Ltd,good@one.co.uk,GB123456789,01234567,30,customer',
    ',nobody@nowhere.co.uk,,,,',
    'Bad Mail Ltd,not-an-address,,,,',
    'Bad VAT Ltd,,GB12345,,,',
    'Bad CRN Ltd,,,123456789,,',
    'Long Terms Ltd,,,,400,',
    'Odd Terms Ltd,,,,end of month,',
    'Odd Type Ltd,,,,,prospect',
    'Name,Email,VAT Number,Company Number,Payment Terms,Contact Type',
    'Shifted Ltd,a,b,c,d,e,f',
    `${'L'.repeat(201)},,,,,`,
    'Good Two Ltd,,DE123456789,SC000001,Net 60,Customer and Supplier',
  ].join('\n');
  const file = readContactFile(text);
  conserved(t, file, 12);
  t.same(
    file.rows.map((r) => [r.rowIndex, r.name, r.vatNumber, r.companyNumber, r.paymentTerms, r.contactType]),
    [
      [0, 'Good One Ltd', 'GB123456789', '01234567', 30, 'customer'],
      [11, 'Good Two Ltd', 'DE123456789', 'SC000001', 60, 'both'],
    ],
  );
  t.same(
    file.rejected.map((r) => [r.rowIndex, r.line, r.field]),
    [
      [1, 3, 'name'],
      [2, 4, 'email'],
      [3, 5, 'vatNumber'],
      [4, 6, 'companyNumber'],
      [5, 7, 'paymentTerms'],
      [6, 8, 'paymentTerms'],
      [7, 9, 'contactType'],
      [8, 10, 'row'],
      [9, 11, 'row'],
      [10, 12, 'name'],
    ],
  );
  t.match(file.rejected, [
    { reason: 'the row has no name' },
    { reason: '"not-an-address" is not an e-mail address' },
    { reason: '"GB12345" is not a VAT number' },
    { reason: /"123456789" is not a company number/ },
    { reason: 'payment terms of 400 days are not 0 to 365 days' },
    { reason: 'payment terms "end of month" are not a number of days' },
    { reason: 'contact type "prospect" is not customer, supplier or both' },
    { reason: /header line again/ },
    { reason: /7 cells where the header has 6/ },
    { reason: 'name is longer than 200 characters' },
  ]);
});

t.test('stray quotes inside a field are read as they are', async (t) => {
  const file = readContactFile('Name,Email\nGood Ltd,g@good.co.uk\nThe "Best" Cafe,best@cafe.co.uk\n');
  conserved(t, file, 2);
  t.same(
    file.rows.map((r) => r.name),
    ['Good Ltd', 'The "Best" Cafe'],
  );
});

t.test('an empty file or one without a name column is a 400 naming file', async (t) => {
  const refusals: [string, RegExp][] = [
    ['', /the file is empty/],
    ['\uFEFF\r\n\r\n', /the file is empty/],
    ['Email,Phone\na@b.co.uk,0123456789\n', /no header row with a name column/],
    ['Name,Email\nA Ltd,a@a.co.uk\n"B Ltd,b@b.co.uk\n', /a quote opened on line 3 is never closed/],
  ];
  for (const [text, message] of refusals) {
    t.throws(() => readContactFile(text), { code: 'validation_error', field: 'file', message }, JSON.stringify(text));
  }
});

t.test('a file with no data rows reads as none; a semicolon-separated file reads too', async (t) => {
  conserved(t, readContactFile('Name,Email\n\n'), 0);
  const file = readContactFile('Name;Email;Postcode\n"Acme; Ltd";a@acme.co.uk;ec1a1bb\n');
  conserved(t, file, 1);
  t.match(file.rows, [{ name: 'Acme; Ltd', postalCode: 'EC1A 1BB' }]);
});

t.test('values as exports write them', async (t) => {
  const text = [
    'Name,VAT,CRN,Postcode,Phone',
    'A,gb 123.456.789,1,sw1a1aa,+44 (0)20 7946 0000',
    'B,123 4567 89,ni 1234,10115,',
    'C,XI123456789,sc-123456,D02 X285,',
    'D,GBGD001,,  m1   1ae ,',
    'E,FR12345678901,,,',
  ].join('\n');
  const file = readContactFile(text);
  conserved(t, file, 5);
  t.same(
    file.rows.map((r) => [r.vatNumber, r.companyNumber, r.postalCode, r.phone]),
    [
      ['GB123456789', '00000001', 'SW1A 1AA', '+44 (0)20 7946 0000'],
      ['123456789', 'NI001234', '10115', null],
      ['XI123456789', 'SC123456', 'D02 X285', null],
      ['GBGD001', null, 'M1 1AE', null],
      ['FR12345678901', null, null, null],
    ],
  );
});
