import t, { type Test } from 'tap';
import fc from 'fast-check';
import {
  previewGroupLimit,
  resolveIdentities,
  similarityThreshold,
  validateResolutions,
  type IdentityPreview,
  type LedgerContact,
  type Resolution,
} from '../../src/engine/imports/contacts/identity.js';
import { graphNodes } from '../../src/engine/imports/contacts/identity-nodes.js';
import { mergedFields } from '../../src/engine/imports/contacts/merge.js';
import { passes, scorePair, similarPairs } from '../../src/engine/imports/contacts/similar-pairs.js';
import { readContactFile, type ContactRow } from '../../src/engine/imports/contacts/read-contacts.js';

const blankRow = {
  company: null,
  email: null,
  phone: null,
  addressLine1: null,
  addressLine2: null,
  city: null,
  region: null,
  postalCode: null,
  country: null,
  vatNumber: null,
  companyNumber: null,
  contactType: null,
  paymentTerms: null,
  warnings: [],
} as const;

/** Rows as the reader gives them, numbered from 0 (line = row + 2: the header is line 1). */
function rowsOf(...rows: (Partial<ContactRow> & { name: string })[]): ContactRow[] {
  return rows.map((r, i) => ({ ...blankRow, rowIndex: i, line: i + 2, ...r }));
}

function ledgerContact(id: string, fields: Partial<LedgerContact> & { name: string }): LedgerContact {
  return {
    id,
    email: null,
    phone: null,
    postalCode: null,
    vatNumber: null,
    companyNumber: null,
    contactType: 'customer',
    createdAt: '2025-01-15T09:00:00.000Z',
    ...fields,
  };
}

/** Each valid row has exactly one decision, and the stats count them: creates + merges + skips + conflicts = validContacts. */
function conserved(t: Test, preview: IdentityPreview, rows: readonly ContactRow[], ledger: readonly LedgerContact[] = []): void {
  const { stats, decisions } = preview;
  t.equal(stats.validContacts, rows.length, 'validContacts');
  t.equal(stats.creates + stats.merges + stats.skips + stats.conflicts, stats.validContacts, 'creates + merges + skips + conflicts = validContacts');
  t.same(
    decisions.map((d) => d.rowIndex),
    rows.map((r) => r.rowIndex),
    'one decision a row, in file order',
  );
  for (const action of ['create', 'merge', 'skip', 'conflict'] as const) {
    const counted = { create: stats.creates, merge: stats.merges, skip: stats.skips, conflict: stats.conflicts }[action];
    t.equal(decisions.filter((d) => d.action === action).length, counted, `${action} decisions = stats`);
  }
  const creates = new Set(decisions.filter((d) => d.action === 'create').map((d) => d.rowIndex));
  const contacts = new Set(ledger.map((c) => c.id));
  const bad = decisions.filter((d) =>
    d.action === 'merge'
      ? (d.contactId === null) === (d.groupLeader === null) || (d.groupLeader !== null ? !creates.has(d.groupLeader) : !contacts.has(d.contactId ?? ''))
      : d.contactId !== null || d.groupLeader !== null,
  );
  t.same(bad, [], 'a merge names one contact or one creating row; nothing else names either');
  const listed = preview.outcomes.flatMap((o) => o.nodeIds);
  t.equal(new Set(listed).size, listed.length, 'no node in two outcomes');
}

type Contact = LedgerContact & { [field: string]: unknown };

/** The books after confirming a preview: created contacts (cont_new_<row>), and each group's rows merged into its contact. Refused while conflicts remain. */
function confirm(rows: readonly ContactRow[], ledger: readonly LedgerContact[], preview: IdentityPreview): LedgerContact[] {
  if (preview.stats.conflicts > 0) throw new Error('confirm is blocked while conflicts remain');
  const books = new Map<string, Contact>(ledger.map((c) => [c.id, { ...c }]));
  const into = new Map<string, ContactRow[]>();
  for (const d of preview.decisions) {
    const row = rows.find((r) => r.rowIndex === d.rowIndex) as ContactRow;
    const incoming = d.useEmail ? row : { ...row, email: null };
    if (d.action === 'create') {
      const { rowIndex: _i, line: _l, warnings: _w, ...fields } = incoming;
      books.set(`cont_new_${d.rowIndex}`, {
        ...fields,
        id: `cont_new_${d.rowIndex}`,
        contactType: row.contactType ?? 'customer',
        createdAt: '2025-04-01T10:00:00.000Z',
      });
    } else if (d.action === 'merge') {
      const id = d.contactId ?? `cont_new_${String(d.groupLeader)}`;
      into.set(id, [...(into.get(id) ?? []), incoming]);
    }
  }
  for (const [id, merging] of into) {
    const existing = books.get(id) as Contact;
    books.set(id, { ...existing, ...mergedFields(existing, merging) });
  }
  return [...books.values()].map((c) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    postalCode: c.postalCode,
    vatNumber: c.vatNumber,
    companyNumber: c.companyNumber,
    contactType: c.contactType,
    createdAt: c.createdAt,
  }));
}

const xeroFile = [
  '*ContactName,AccountNumber,EmailAddress,FirstName,LastName,POAttentionTo,POAddressLine1,POAddressLine2,POCity,PORegion,POPostalCode,POCountry,PhoneNumber,MobileNumber,TaxNumber,CompanyNumber,DueDateSalesDay,DueDateSalesTerm,IsCustomer,IsSupplier',
  'Acme Widgets Ltd,ACME01,accounts@acmewidgets.co.uk,Jo,Bloggs,,1 High Street,,London,,SW1A 1AA,United Kingdom,020 7946 0001,,GB123456789,01234567,30,DAYSAFTERBILLDATE,Yes,No',
  'Acme Widgets (purchasing),,buying@acmewidgets.co.uk,,,,,,,,,,,,,,,,No,Yes',
  'Jane Smith,,jane.smith@gmail.com,Jane,Smith,,4 Elm Road,,York,,YO1 7HH,United Kingdom,07700 900001,,,,14,DAYSAFTERBILLDATE,Yes,No',
  'Tom Brown Plumbing,,tom.brown@outlook.com,,,,,,Leeds,,LS1 4AP,United Kingdom,,,,,,,No,Yes',
  'Jane Smith,,jane.smith@gmail.com,Jane,Smith,,4 Elm Road,,York,,YO1 7HH,United Kingdom,07700 900001,,,,14,DAYSAFTERBILLDATE,Yes,No',
].join('\n');

const freeAgentFile = [
  'Organisation,First Name,Last Name,Email,Phone Number,Address 1,Address 2,Town,Region,Postcode,Country,VAT Registration Number,Company Registration Number,Default Payment Terms (days),Contact Type',
  'Brightside Design Ltd,Sam,Patel,sam@brightside.design,0161 496 0000,2 Mill Lane,,Manchester,,M1 1AE,United Kingdom,GB987654321,09876543,14,Client',
  ',Alex,Morgan,alex.morgan@gmail.com,,,,Bristol,,BS1 5TR,United Kingdom,,,30,Supplier',
  'Brightside Design,,,accounts@brightside.design,,,,,,,,,,,Supplier',
].join('\n');

const quickBooksFile = [
  'Contact List',
  '',
  'Name,Type,Company name,Email,Phone,Street,City,County,Postcode,Country,VAT registration no.,Terms',
  'Harbour Cafe,Customer,Harbour Cafe Ltd,info@harbourcafe.co.uk,01632 960000,3 Quay Road,Plymouth,Devon,PL1 2AB,United Kingdom,GB111222333,Net 30',
  'Office Supplies Direct,Supplier,,,0113 496 0000,,,,,,,Net 15',
  'Harbour Cafe,Supplier,Harbour Cafe Ltd,info@harbourcafe.co.uk,01632 960000,3 Quay Road,Plymouth,Devon,PL1 2AB,United Kingdom,GB111222333,Net 30',
].join('\n');

t.test('each provider file: duplicates merge into the first row; re-importing it merges every row and creates none', async (t) => {
  const cases = [
    // Xero: rows 0 and 1 share acmewidgets.co.uk; row 4 repeats row 2 exactly.
    { provider: 'xero', text: xeroFile, creates: 3, merges: 2, groups: [['row_0', 'row_1'], ['row_2', 'row_4'], ['row_3']] },
    // FreeAgent: rows 0 and 2 share brightside.design.
    { provider: 'freeagent', text: freeAgentFile, creates: 2, merges: 1, groups: [['row_0', 'row_2'], ['row_1']] },
    // QuickBooks: row 2 repeats row 0 as a supplier (same VAT number).
    { provider: 'quickbooks', text: quickBooksFile, creates: 2, merges: 1, groups: [['row_0', 'row_2'], ['row_1']] },
  ];
  for (const c of cases) {
    await t.test(c.provider, async (t) => {
      const file = readContactFile(c.text);
      t.equal(file.rows.length + file.rejected.length, file.totalRows);
      t.same(file.rejected, []);
      const first = resolveIdentities(file.rows, [], [], file.totalRows);
      conserved(t, first, file.rows);
      t.match(first.stats, { creates: c.creates, merges: c.merges, conflicts: 0, skips: 0, totalRows: c.creates + c.merges });
      t.same(
        first.outcomes.map((o) => [o.type, o.nodeIds]),
        c.groups.map((g) => ['CREATE', g]),
      );
      for (const d of first.decisions.filter((d) => d.action === 'merge')) {
        t.equal(
          d.groupLeader,
          Number((c.groups.find((g) => g.includes(`row_${d.rowIndex}`)) as string[])[0]?.slice(4)),
          `row ${d.rowIndex} merges into the first row of its group`,
        );
      }

      const books = confirm(file.rows, [], first);
      t.equal(books.length, c.creates);
      const again = resolveIdentities(file.rows, books, [], file.totalRows);
      conserved(t, again, file.rows, books);
      t.match(again.stats, { creates: 0, merges: file.rows.length, conflicts: 0, skips: 0 });
      t.ok(
        again.outcomes.every((o) => o.type === 'MERGE'),
        'every group merges',
      );
      t.same(
        again.decisions.map((d) => d.contactId),
        first.decisions.map((d) => `cont_new_${d.action === 'create' ? d.rowIndex : String(d.groupLeader)}`),
        'each row into the contact its first import made',
      );
      const books2 = confirm(file.rows, books, again);
      t.same(books2, books, 'and confirming the re-import changes nothing');
    });
  }
});

t.test('an exact duplicate: the same name and no detail that differs; a detail that differs is no duplicate', async (t) => {
  const rows = rowsOf(
    { name: 'Jane Smith', email: 'jane.smith@gmail.com', phone: '07700 900001' },
    { name: 'JANE SMITH', postalCode: 'YO1 7HH' },
    { name: 'Jane Smith', email: 'jane@smithfamily.me.uk' },
  );
  const preview = resolveIdentities(rows, [], []);
  conserved(t, preview, rows);
  // Row 1 has no e-mail: nothing differs from row 0. Row 2's e-mail differs from row 0's, so row 2 only joins through row 1.
  t.same(
    preview.outcomes.map((o) => [o.type, o.nodeIds]),
    [['CREATE', ['row_0', 'row_1', 'row_2']]],
  );
  t.match(preview.evidence, [{ type: 'EXACT', nodeIds: ['row_0', 'row_1', 'row_2'], confidence: 95 }]);
  t.match(preview.decisions, [
    { action: 'create', reason: 'creates a new contact; rows 1, 2 merge into it' },
    {
      action: 'merge',
      groupLeader: 0,
      reason: /^merges into the contact created from row 0 \(line 2\): the same name "jane smith" and no detail that differs as row_0$/,
    },
    { action: 'merge', groupLeader: 0, reason: /as row_1$/ },
  ]);
});

t.test('generic mail domains are no identity; a company domain is', async (t) => {
  const rows = rowsOf(
    { name: 'Jane Smith', email: 'jane@gmail.com' },
    { name: 'Peter Okafor', email: 'peter@gmail.com' },
    { name: 'Ravi Shah', email: 'ravi@btinternet.com' },
    { name: 'Lucy Grant', email: 'lucy@mail.yahoo.com' },
    { name: 'Northwind Traders', email: 'sarah.jones@northwind.co.uk' },
    { name: 'Northwind (Accounts Payable)', email: 'ap@northwind.co.uk' },
    { name: 'Ravi Shah & Co', email: 'ravi.shah@btconnect.com' },
  );
  const ledger = [ledgerContact('cont_1', { name: 'Mo Ali', email: 'mo@yahoo.co.uk' })];
  const preview = resolveIdentities(rows, ledger, []);
  conserved(t, preview, rows, ledger);
  t.same(
    preview.nodes.map((n) => n.hardKeys),
    [[], [], [], [], ['domain:northwind.co.uk'], ['domain:northwind.co.uk'], [], []],
  );
  // 7 rows: rows 4 and 5 one contact (1 create, 1 merge), 5 others each their own: 6 creates.
  t.match(preview.stats, { creates: 6, merges: 1, conflicts: 0 });
  t.same(
    preview.evidence.map((e) => [e.type, e.nodeIds]),
    [['EMAIL_DOMAIN', ['row_4', 'row_5']]],
  );

  // The same company domain alone between names that share no word is a conflict, not a merge.
  const unlike = rowsOf({ name: 'Sarah Jones', email: 'sarah.jones@northwind.co.uk' }, { name: 'Accounts Payable', email: 'ap@northwind.co.uk' });
  const apart = resolveIdentities(unlike, [], []);
  conserved(t, apart, unlike);
  t.match(apart.stats, { creates: 0, merges: 0, conflicts: 2 });
  t.match(apart.evidence, [{ type: 'EMAIL_DOMAIN', nodeIds: ['row_1', 'row_0'], confidence: 50, reason: /"Accounts Payable" \/ "Sarah Jones" share no word/ }]);
});

t.test('VAT and company numbers match in any spelling, and merge a row into the contact in the books, filling only its blanks', async (t) => {
  const rows = rowsOf(
    { name: 'Northwind Traders', vatNumber: '123456789', phone: '020 7946 0002', email: 'orders@northwind.co.uk', city: 'Leeds', contactType: 'supplier' },
    { name: 'NW Trading', companyNumber: '00345678' },
  );
  const ledger = [
    ledgerContact('cont_7', { name: 'Northwind Traders Ltd', vatNumber: 'GB 123 4567 89', email: 'ar@northwind.co.uk', contactType: 'customer' }),
    ledgerContact('cont_8', { name: 'Something Else', companyNumber: '345678' }),
  ];
  const preview = resolveIdentities(rows, ledger, []);
  conserved(t, preview, rows, ledger);
  t.same(
    preview.outcomes.map((o) => [o.type, o.nodeIds, o.contactId]),
    [
      ['MERGE', ['row_0', 'ledger_cont_7'], 'cont_7'],
      ['MERGE', ['row_1', 'ledger_cont_8'], 'cont_8'],
    ],
  );
  t.match(preview.evidence, [
    { type: 'VAT_NUMBER', nodeIds: ['row_0', 'ledger_cont_7'], confidence: 100, reason: 'the same VAT number GB123456789' },
    { type: 'COMPANY_NUMBER', nodeIds: ['row_1', 'ledger_cont_8'], confidence: 100, reason: 'the same company number 00345678' },
    { type: 'EMAIL_DOMAIN', nodeIds: ['row_0', 'ledger_cont_7'] },
  ]);
  t.match(preview.decisions[0], {
    action: 'merge',
    contactId: 'cont_7',
    reason: /^merges into cont_7 \(Northwind Traders Ltd\): the same VAT number GB123456789 as ledger_cont_7$/,
  });
  // The contact keeps its e-mail address and VAT number; the row adds its phone and city; customer + supplier = both.
  t.same(mergedFields({ ...ledger[0], city: null }, rows[0] as ContactRow), { phone: '020 7946 0002', city: 'Leeds', contactType: 'both' });
  t.same(mergedFields({ phone: '', contactType: 'both', paymentTerms: 0 }, { ...(rows[0] as ContactRow), paymentTerms: 30 }), {
    email: 'orders@northwind.co.uk',
    phone: '020 7946 0002',
    city: 'Leeds',
    vatNumber: '123456789',
  });
  t.same(mergedFields({ contactType: null }, rowsOf({ name: 'y', contactType: 'supplier' })[0] as ContactRow), { contactType: 'supplier' });
});

t.test('rows that disagree on a phone both merge into a contact without one, which stays without one', async (t) => {
  const ledger = [ledgerContact('cont_1', { name: 'Acme Ltd' })];
  const rows = rowsOf({ name: 'ACME Limited', phone: '01632 960001', city: 'Leeds' }, { name: 'Acme', phone: '01632 960002', city: 'York' });
  const preview = resolveIdentities(rows, ledger, []);
  conserved(t, preview, rows, ledger);
  t.same(preview.outcomes, [{ type: 'MERGE', nodeIds: ['row_0', 'row_1', 'ledger_cont_1'], contactId: 'cont_1' }]);
  // Taking row 0's phone would make row 1 differ from the contact on the next import: neither is taken. The city is not compared: the first row's.
  t.same(mergedFields(ledger[0] as LedgerContact, rows), { city: 'Leeds' });
  t.same(mergedFields(ledger[0] as LedgerContact, [rows[0] as ContactRow, { ...(rows[1] as ContactRow), phone: '+44 1632 960001' }]), {
    phone: '01632 960001',
    city: 'Leeds',
  });
  const again = resolveIdentities(rows, confirm(rows, ledger, preview), []);
  conserved(t, again, rows, ledger);
  t.match(again.stats, { creates: 0, merges: 2 });
});

t.test('two contacts in the books that are one business: the rows merge into the one created first', async (t) => {
  const rows = rowsOf({ name: 'Harbour Cafe', vatNumber: 'GB111222333', companyNumber: '07654321' });
  const ledger = [
    ledgerContact('cont_a', { name: 'Harbour Cafe', vatNumber: 'GB111222333', createdAt: '2024-05-01T12:00:00.000Z' }),
    ledgerContact('cont_b', { name: 'The Harbour Cafe Ltd', companyNumber: '7654321', createdAt: '2024-01-10T08:00:00.000Z' }),
  ];
  const preview = resolveIdentities(rows, ledger, []);
  conserved(t, preview, rows, ledger);
  t.same(preview.outcomes, [{ type: 'MERGE', nodeIds: ['row_0', 'ledger_cont_a', 'ledger_cont_b'], contactId: 'cont_b' }]);
  t.match(
    preview.evidence.find((e) => e.type === 'SEVERAL_CONTACTS'),
    { nodeIds: ['ledger_cont_a', 'ledger_cont_b'], reason: /merge into cont_b, created first/ },
  );
  t.match(preview.decisions, [{ action: 'merge', contactId: 'cont_b' }]);
});

t.test('numbers that contradict: neither a shared domain nor the same name merges them; it is a conflict', async (t) => {
  const rows = rowsOf(
    { name: 'Acme Holdings', email: 'finance@acme.co.uk', vatNumber: 'GB111111111' },
    { name: 'Acme Retail', email: 'shop@acme.co.uk', vatNumber: 'GB222222222' },
    { name: 'Acme Services', email: 'help@acme.co.uk', companyNumber: '01111111' },
    { name: 'Acme Services', companyNumber: '02222222' },
    { name: 'Acme Services' },
  );
  const preview = resolveIdentities(rows, [], []);
  conserved(t, preview, rows);
  // Row 2 (no VAT number) joins row 0's group by the domain; row 1's VAT number contradicts row 0's: refused, a conflict.
  // Row 3 has row 2's name but another company number, so it is no duplicate of row 2; row 4 (nothing but the name) is a
  // duplicate of both: it joins row 2 first, and then its group's company number contradicts row 3's: refused, a conflict.
  t.same(
    preview.outcomes.map((o) => [o.type, o.nodeIds]),
    [['CONFLICT', ['row_0', 'row_1', 'row_2', 'row_3', 'row_4']]],
  );
  t.match(
    preview.evidence.filter((e) => e.confidence === 50),
    [
      { type: 'EXACT', nodeIds: ['row_4', 'row_3'], reason: /company numbers 01111111 \/ 02222222 differ: not merged/ },
      { type: 'EMAIL_DOMAIN', nodeIds: ['row_1', 'row_0'], reason: /VAT numbers GB222222222 \/ GB111111111 differ: not merged/ },
    ],
  );
  t.match(preview.stats, { creates: 0, merges: 0, conflicts: 5 });
  t.ok(
    preview.decisions.every((d) => d.action === 'conflict' && /^a conflict to resolve with link, split or skip: /.test(d.reason)),
    'every row of the conflict waits',
  );

  // Without row 4, the two companies called Acme Services are simply two contacts: 0.40 × 1.00 for the name, nothing else alike, 0.40 < 0.50.
  const two = rows.slice(0, 4);
  const apart = resolveIdentities(two, [], []);
  conserved(t, apart, two);
  t.same(
    apart.outcomes.map((o) => [o.type, o.nodeIds]),
    [
      ['CONFLICT', ['row_0', 'row_1', 'row_2']],
      ['CREATE', ['row_3']],
    ],
  );
  // A person decides: row 1 is the same business after all (a link), or another one (a split).
  const linked = resolveIdentities(two, [], [{ link: ['row_1', 'row_0'] }]);
  conserved(t, linked, two);
  t.same(
    linked.outcomes.map((o) => [o.type, o.nodeIds]),
    [
      ['CREATE', ['row_0', 'row_1', 'row_2']],
      ['CREATE', ['row_3']],
    ],
  );
  const split = resolveIdentities(two, [], [{ split: ['row_1', 'row_2'] }]);
  conserved(t, split, two);
  t.same(
    split.outcomes.map((o) => [o.type, o.nodeIds]),
    [
      ['CREATE', ['row_0', 'row_2']],
      ['CREATE', ['row_1']],
      ['CREATE', ['row_3']],
    ],
  );
});

t.test('soft similarity at the threshold is a conflict; below it, none', async (t) => {
  t.equal(similarityThreshold, 0.45);
  const ledger = [ledgerContact('cont_1', { name: 'Acme Trading Ltd', phone: '01632 960001', postalCode: 'PL1 2AB' })];
  // 'acme tradng' / 'acme trading': 1 edit in 12 letters, similarity floor(100 × 11 / 12) = 91%.
  // Same phone: 0.40 × 0.91 + 0.15 = 0.364 + 0.15 = 0.514 ≥ 0.45, a conflict.
  const near = rowsOf({ name: 'Acme Tradng', phone: '+44 1632 960001' });
  const conflict = resolveIdentities(near, ledger, []);
  conserved(t, conflict, near, ledger);
  t.same(conflict.outcomes, [{ type: 'CONFLICT', nodeIds: ['row_0', 'ledger_cont_1'], contactId: null }]);
  t.match(conflict.evidence, [
    { type: 'SIMILAR', nodeIds: ['row_0', 'ledger_cont_1'], confidence: 51, reason: /score 0\.51: names 91% alike, the same phone/ },
  ]);
  // Same postcode instead: 0.364 + 0.10 = 0.464 ≥ 0.45, still a conflict.
  const postcode = rowsOf({ name: 'Acme Tradng', postalCode: 'pl12ab' });
  const atPostcode = resolveIdentities(postcode, ledger, []);
  conserved(t, atPostcode, postcode, ledger);
  t.match(atPostcode.evidence, [{ type: 'SIMILAR', confidence: 46, reason: /score 0\.46: names 91% alike, the same postcode/ }]);
  // 'acme trdng': 2 edits in 12 letters, floor(100 × 10 / 12) = 83%; with the postcode 0.40 × 0.83 + 0.10 = 0.332 + 0.10 = 0.432 < 0.45, no conflict.
  const far = rowsOf({ name: 'Acme Trdng', postalCode: 'pl12ab' });
  const none = resolveIdentities(far, ledger, []);
  conserved(t, none, far, ledger);
  t.same(
    none.outcomes.map((o) => o.type),
    ['CREATE'],
  );
  t.same(none.evidence, []);
});

t.test('resolutions: link merges, split keeps apart, skip leaves the row out', async (t) => {
  const ledger = [ledgerContact('cont_1', { name: 'Acme Trading Ltd', phone: '01632 960001' })];
  const rows = rowsOf({ name: 'Acme Tradng', phone: '01632 960001' }, { name: 'Zed Ltd' });
  const open = resolveIdentities(rows, ledger, []);
  conserved(t, open, rows, ledger);
  t.match(open.stats, { creates: 1, conflicts: 1 });
  const ids = new Set(open.nodes.map((n) => n.id));

  const link: Resolution[] = [{ link: ['row_0', 'ledger_cont_1'] }];
  validateResolutions(link, ids);
  const linked = resolveIdentities(rows, ledger, link);
  conserved(t, linked, rows, ledger);
  t.match(linked.stats, { creates: 1, merges: 1, conflicts: 0, skips: 0 });
  t.match(linked.decisions[0], { action: 'merge', contactId: 'cont_1', reason: /linked by a resolution as ledger_cont_1/ });
  t.same(linked.nodes[0]?.hardKeys, ['link:row_0~ledger_cont_1']);
  t.match(linked.evidence, [{ type: 'LINK', nodeIds: ['row_0', 'ledger_cont_1'], confidence: 100 }]);

  const split: Resolution[] = [{ split: ['ledger_cont_1', 'row_0'] }];
  validateResolutions(split, ids);
  const apart = resolveIdentities(rows, ledger, split);
  conserved(t, apart, rows, ledger);
  t.match(apart.stats, { creates: 2, merges: 0, conflicts: 0 });
  t.same(
    apart.evidence.map((e) => e.type),
    ['SPLIT'],
  );

  const skip: Resolution[] = [{ skip: 'row_0' }];
  validateResolutions(skip, ids);
  const skipped = resolveIdentities(rows, ledger, skip, 3);
  conserved(t, skipped, rows, ledger);
  t.same(skipped.stats, { creates: 1, merges: 0, conflicts: 0, skips: 1, totalRows: 3, validContacts: 2 });
  t.match(skipped.decisions[0], { action: 'skip', reason: 'skipped by a resolution' });
  t.same(
    skipped.outcomes.map((o) => [o.type, o.nodeIds]),
    [['CREATE', ['row_1']]],
  );
});

t.test('a split keeps two groups apart even when duplicates link them to each other', async (t) => {
  // Rows 0 and 1 are exact duplicates; both are like the contact in the books: one split of the pair covers both.
  const ledger = [ledgerContact('cont_1', { name: 'Acme Trading Ltd', phone: '01632 960001' })];
  const rows = rowsOf({ name: 'Acme Tradng', phone: '01632 960001' }, { name: 'Acme Tradng', phone: '01632 960001' });
  const preview = resolveIdentities(rows, ledger, [{ split: ['row_0', 'ledger_cont_1'] }]);
  conserved(t, preview, rows, ledger);
  t.match(preview.stats, { creates: 1, merges: 1, conflicts: 0 });
});

t.test('one e-mail address in two groups is a conflict: the books allow one contact per address', async (t) => {
  const rows = rowsOf({ name: 'Jane Smith', email: 'family@gmail.com' }, { name: 'Tom Brown', email: 'family@gmail.com' });
  const preview = resolveIdentities(rows, [], []);
  conserved(t, preview, rows);
  // 'jane smith' / 'tom brown' share few letters: the score is well below 0.50, yet the address cannot be on two contacts.
  t.same(preview.outcomes, [{ type: 'CONFLICT', nodeIds: ['row_0', 'row_1'], contactId: null }]);
  t.match(preview.evidence, [{ type: 'SIMILAR', reason: /one e-mail address \(family@gmail\.com\) belongs to one contact only/ }]);
  const apart = resolveIdentities(rows, [], [{ split: ['row_0', 'row_1'] }]);
  conserved(t, apart, rows);
  t.match(apart.decisions, [
    { action: 'create', useEmail: true },
    { action: 'create', useEmail: false },
  ]);
  const books = confirm(rows, [], apart);
  t.same(
    books.map((c) => [c.name, c.email]),
    [
      ['Jane Smith', 'family@gmail.com'],
      ['Tom Brown', null],
    ],
  );
});

t.test(`the preview lists ${previewGroupLimit} groups, conflicts first; stats and decisions cover every row`, async (t) => {
  // 60 names with nothing in common: letters of i in base 26, each spelled out 3 times with a different stride.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const nameOf = (i: number): string => [0, 7, 13].map((k) => `${letters[(i + k) % 26] ?? ''}${letters[(i * 3 + k) % 26] ?? ''}${String(i)}`).join(' ');
  const rows = rowsOf(...Array.from({ length: 60 }, (_, i) => ({ name: nameOf(i), phone: `01632 9600${String(i).padStart(2, '0')}` })));
  // Row 59 is 'hv59 oc59 ui59'; the contact in the books one letter more (1 edit in 15: floor(100 × 14 / 15) = 93%) and the
  // same phone: 0.40 × 0.93 + 0.15 = 0.372 + 0.15 = 0.522 ≥ 0.50, a conflict, listed first.
  const ledger = [ledgerContact('cont_1', { name: 'hv59 oc59 ui59x', phone: '01632 960059' })];
  t.equal(nameOf(59), 'hv59 oc59 ui59');
  const preview = resolveIdentities(rows, ledger, []);
  conserved(t, preview, rows, ledger);
  t.equal(preview.outcomes.length, 50);
  t.equal(preview.totalGroups, 60);
  t.same(preview.outcomes[0], { type: 'CONFLICT', nodeIds: ['row_59', 'ledger_cont_1'], contactId: null });
  t.same(
    preview.outcomes.slice(1).map((o) => o.nodeIds[0]),
    Array.from({ length: 49 }, (_, i) => `row_${i}`),
  );
  t.same(preview.stats, { creates: 59, merges: 0, conflicts: 1, skips: 0, totalRows: 60, validContacts: 60 });
  t.equal(preview.decisions.length, 60);
});

t.test('validateResolutions refuses what cannot be done, naming resolutions', async (t) => {
  const ids = new Set(['row_0', 'row_1', 'row_2', 'ledger_cont_1']);
  const refusals: [Resolution[], RegExp][] = [
    [[], /at least one/],
    [[{ link: ['row_0', 'row_9'] }], /resolutions\[0\] names "row_9", which is not a node of this import/],
    [[{ skip: 'row_0' }, { split: ['row_1', 'row_1'] }], /resolutions\[1\] splits row_1 with itself/],
    [[{ link: ['row_2', 'row_2'] }], /links row_2 with itself/],
    [[{ skip: 'ledger_cont_1' }], /a contact already in the books/],
    [[{ link: ['row_0', 'row_1'] }, { split: ['row_1', 'row_0'] }], /resolutions\[1\] splits row_1 and row_0, which links join/],
    [[{ link: ['row_0', 'row_1'] }, { link: ['row_1', 'ledger_cont_1'] }, { split: ['ledger_cont_1', 'row_0'] }], /resolutions\[2\] splits/],
    [[{ skip: 'row_1' }, { link: ['row_0', 'row_1'] }], /resolutions\[0\] skips row_1, which a link joins/],
  ];
  for (const [resolutions, message] of refusals) {
    t.throws(() => validateResolutions(resolutions, ids), { code: 'validation_error', field: 'resolutions', message }, JSON.stringify(resolutions));
  }
  t.doesNotThrow(() => validateResolutions([{ link: ['row_0', 'row_1'] }, { split: ['row_1', 'row_2'] }, { skip: 'row_2' }], ids));
});

// Small pools so that random files are full of duplicates, shared keys, contradictions and near names.
const names = ['Acme Ltd', 'ACME Limited', 'Acme Trading', 'Acme Tradng', 'Beta Ltd', 'Jane Smith', 'Jane Smyth', 'Tom Brown', 'Zed'];
const emails = [null, null, 'a@acme.co.uk', 'b@acme.co.uk', 'x@gmail.com', 'y@gmail.com', 'c@beta.co.uk'];
const phones = [null, null, '01632 960001', '01632 960002'];
const postcodes = [null, null, 'PL1 2AB', 'M1 1AE'];
const vats = [null, null, null, 'GB111111111', 'GB222222222', '111111111'];
const crns = [null, null, null, '01111111', '02222222'];
const types = [null, 'customer', 'supplier', 'both'] as const;
const fields = {
  name: fc.constantFrom(...names),
  email: fc.constantFrom(...emails),
  phone: fc.constantFrom(...phones),
  postalCode: fc.constantFrom(...postcodes),
  vatNumber: fc.constantFrom(...vats),
  companyNumber: fc.constantFrom(...crns),
};
const rowArb = fc.record({ ...fields, contactType: fc.constantFrom(...types) });
const ledgerArb = fc.record({ ...fields, contactType: fc.constantFrom('customer', 'supplier', 'both') });
const fileArb = fc.record({
  rows: fc.array(rowArb, { maxLength: 14 }),
  ledger: fc.uniqueArray(ledgerArb, { maxLength: 4, selector: (c) => c.email ?? Symbol() }),
  picks: fc.array(fc.tuple(fc.constantFrom('link', 'split', 'skip'), fc.nat(), fc.nat()), { maxLength: 3 }),
});

interface RandomFile {
  readonly rows: (Partial<ContactRow> & { name: string })[];
  readonly ledger: (Partial<LedgerContact> & { name: string })[];
  readonly picks: readonly (readonly [string, number, number])[];
}

function build(input: RandomFile) {
  const rows = rowsOf(...input.rows);
  const ledger = input.ledger.map((c, i) => ledgerContact(`cont_${i}`, { ...c, createdAt: `2025-0${String(1 + (i % 3))}-01T00:00:00.000Z` }));
  const ids = [...rows.map((r) => `row_${r.rowIndex}`), ...ledger.map((c) => `ledger_${c.id}`)];
  const resolutions: Resolution[] = [];
  for (const [kind, x, y] of input.picks) {
    if (ids.length === 0) break;
    const [a, b] = [ids[x % ids.length] as string, ids[y % ids.length] as string];
    const r: Resolution = kind === 'skip' ? { skip: a } : kind === 'link' ? { link: [a, b] } : { split: [a, b] };
    try {
      validateResolutions([...resolutions, r], new Set(ids));
      resolutions.push(r);
    } catch {
      // a resolution the API would refuse: not part of this file's decisions
    }
  }
  return { rows, ledger, resolutions };
}

t.test('property: every row has exactly one decision, whatever the file, books and resolutions', async (t) => {
  fc.assert(
    fc.property(fileArb, (input) => {
      const { rows, ledger, resolutions } = build(input);
      const preview = resolveIdentities(rows, ledger, resolutions);
      const { stats, decisions } = preview;
      if (stats.creates + stats.merges + stats.skips + stats.conflicts !== rows.length) return false;
      if (decisions.map((d) => d.rowIndex).join() !== rows.map((r) => r.rowIndex).join()) return false;
      const creates = new Set(decisions.filter((d) => d.action === 'create').map((d) => d.rowIndex));
      const ok = decisions.every((d) =>
        d.action === 'merge'
          ? d.groupLeader !== null
            ? creates.has(d.groupLeader) && d.contactId === null
            : ledger.some((c) => c.id === d.contactId)
          : d.contactId === null && d.groupLeader === null,
      );
      const listed = preview.outcomes.flatMap((o) => o.nodeIds);
      return ok && new Set(listed).size === listed.length && JSON.stringify(resolveIdentities(rows, ledger, resolutions)) === JSON.stringify(preview);
    }),
    { numRuns: 400 },
  );
  t.pass('conserved in every run');
});

t.test('property: re-importing a confirmed file creates nothing', async (t) => {
  // A re-import is a new import: the first one's links and skips are not in it (a skipped row was never imported, and a
  // link joined names no key joins), so the first import here has splits only.
  fc.assert(
    fc.property(fileArb, (input) => {
      const { rows, ledger, resolutions } = build({ ...input, picks: input.picks.filter(([kind]) => kind === 'split') });
      const preview = resolveIdentities(rows, ledger, resolutions);
      fc.pre(preview.stats.conflicts === 0);
      const books = confirm(rows, ledger, preview);
      const again = resolveIdentities(rows, books, []);
      return again.stats.creates === 0;
    }),
    { numRuns: 1000 },
  );
  t.pass('no duplicates');
});

t.test('property: the index of letter pairs finds every pair a comparison of all pairs finds', async (t) => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', ' '), maxLength: 12 });
  // Near names (one or two letters apart) besides random ones, so that pairs 75% and 88% alike are common.
  const nearName = fc.constantFrom('acme trading', 'acme tradng', 'acme tradin', 'acme trdng', 'acne trading', 'acme tradings', 'bcme trading');
  const node = fc.record({
    name: fc.oneof(word, nearName),
    email: fc.constantFrom(null, 'x@gmail.com', 'y@gmail.com'),
    phone: fc.constantFrom(null, '01632 960001', '01632 960001', '01632 960002'),
    postalCode: fc.constantFrom(null, 'PL1 2AB', 'PL1 2AB', 'M1 1AE'),
  });
  // Up to 90 nodes, so that a phone or postcode is often shared by more than 32 of them and the letter-pair index is used.
  fc.assert(
    fc.property(fc.array(node, { minLength: 30, maxLength: 80 }), fc.array(node, { maxLength: 10 }), (rowFields, ledgerFields) => {
      const rows = rowsOf(...rowFields.map((f) => ({ ...f, name: f.name.trim() === '' ? 'x' : f.name })));
      const nodes = graphNodes(
        rows,
        ledgerFields.map((f, i) => ledgerContact(`cont_${i}`, f)),
      );
      const brute: string[] = [];
      for (const a of nodes) {
        for (const b of nodes) {
          if (a.index >= b.index || (a.row === null && b.row === null)) continue;
          const pair = scorePair(a, b);
          if (passes(pair) || pair.sameEmail) brute.push(`${a.index}-${b.index}`);
        }
      }
      const found = similarPairs(nodes, () => true).map((p) => `${p.a}-${p.b}`);
      return JSON.stringify(found) === JSON.stringify(brute);
    }),
    { numRuns: 300 },
  );
  t.pass('the same pairs');
});

t.test('rows remembered from an earlier import merge where they went; groups each with a contact in the books never conflict', async (t) => {
  const ledger = [
    ledgerContact('cont_1', { name: 'Acme Trading Ltd', phone: '01632 960001' }),
    ledgerContact('cont_2', { name: 'Acme Tradng', phone: '01632 960001' }),
  ];
  // Each row is its own contact's exact duplicate; the two groups are 91% alike with the same phone (0.514, see above) but each holds a contact: no conflict.
  const exact = rowsOf({ name: 'Acme Trading', phone: '01632 960001' }, { name: 'Acme Tradng', phone: '01632 960001' });
  const apart = resolveIdentities(exact, ledger, []);
  conserved(t, apart, exact, ledger);
  t.match(apart.stats, { creates: 0, merges: 2, conflicts: 0 });
  t.match(apart.decisions, [{ contactId: 'cont_1' }, { contactId: 'cont_2' }]);

  // A row a person linked to cont_1 in the first import: alone it conflicts with cont_1 (0.514)...
  const one = [ledger[0] as LedgerContact];
  const linked = rowsOf({ name: 'Acme Tradng', phone: '01632 960001' });
  const fresh = resolveIdentities(linked, one, []);
  conserved(t, fresh, linked, one);
  t.match(fresh.stats, { conflicts: 1 });
  // ...remembered, it merges where it went.
  const again = resolveIdentities(linked, one, [], linked.length, [['row_0', 'ledger_cont_1']]);
  conserved(t, again, linked, one);
  t.match(again.stats, { creates: 0, merges: 1, conflicts: 0 });
  t.match(again.decisions, [{ action: 'merge', contactId: 'cont_1', reason: /imported before into the same contact/ }]);
  // A remembered contact no longer in the books is left out: the row is worked out afresh.
  const gone = resolveIdentities(linked, [], [], linked.length, [['row_0', 'ledger_cont_1']]);
  conserved(t, gone, linked, []);
  t.match(gone.stats, { creates: 1, conflicts: 0 });
});
