/**
 * Contact imports over HTTP, on the exports in fixtures/migrations (their
 * README.md says what each row comes out as): upload as a merge preview,
 * processing while an identity conflict waits, resolve (split, link, skip)
 * to pending, confirm with every row accounted for (created + merged +
 * skipped + rejected = rows), the contacts written with their fields,
 * merges by company e-mail domain and by a VAT number written two ways,
 * gmail addresses never merging, re-importing the same file giving merges
 * only, and every refusal leaving the books as they were.
 *
 * Node ids are 0-based (`row_0` is data row 1 of a README), so README row
 * n is `row_{n-1}`.
 */
import fs from 'node:fs';
import t, { type Test } from 'tap';
import { projectFile } from '../../src/paths.js';
import { createKey, expectError } from '../http/support.js';
import { contactsByName, fixture, tally, world } from './support.js';

type Api = Awaited<ReturnType<typeof world>>['api'];
interface Evidence {
  type: string;
  nodeIds: string[];
  reason: string;
}
interface Outcome {
  type: string;
  nodeIds: string[];
}
const sorted = (ids: string[]) => [...ids].sort();

async function upload(t: Test, api: Api, file: string) {
  const r = await api.request('POST', '/v1/contact-imports/upload', { body: { file, filename: 'contacts.csv' } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  return r.body.data;
}

async function confirm(t: Test, api: Api, importId: string) {
  const r = await api.request('POST', `/v1/contact-imports/${importId}/confirm`);
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  const d = r.body.data;
  t.equal(d.created + d.merged + d.skipped + d.rejected, d.total, 'row conservation: created + merged + skipped + rejected = rows');
  return d;
}

/** Re-upload a file already confirmed: it should only merge. If a conflict comes back all the same, settle it as before to see that nothing is created. */
async function reimport(t: Test, api: Api, file: string, rows: number, settle: 'split' | 'link') {
  const again = await upload(t, api, file);
  t.equal(again.status, 'pending', 're-importing the same file is ready to confirm: every row merges into a contact it made');
  t.same(again.preview.stats, { creates: 0, merges: rows, conflicts: 0, skips: 0, totalRows: rows, validContacts: rows }, 'only merges');
  t.ok(
    again.preview.outcomes.every((o: Outcome) => o.type === 'MERGE'),
    `every outcome is a MERGE: ${JSON.stringify(again.preview.outcomes.filter((o: Outcome) => o.type !== 'MERGE'))}`,
  );
  if (again.status === 'processing') {
    const similar = (again.preview.evidence as Evidence[]).filter((e) => e.type === 'SIMILAR');
    const r = await api.request('POST', `/v1/contact-imports/${again.importId}/resolve`, {
      body: { resolutions: similar.map((e) => ({ [settle]: e.nodeIds })) },
    });
    t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
    t.equal(r.body.data.status, 'pending', `settled by ${settle} of ${JSON.stringify(similar.map((e) => e.nodeIds))}`);
  }
  return confirm(t, api, again.importId);
}

t.test('Xero: a conflict holds the import in processing; split resolves it; confirm writes 15 contacts with their fields', async (t) => {
  const { books, api } = await world(t);
  const empty = await tally(books);
  const file = fixture('xero/contacts.csv');
  const up = await upload(t, api, file);
  t.equal(up.status, 'processing', 'Cooper & Vale / Cooper & Vail is a conflict');
  t.equal(up.canConfirm, false);
  // 17 rows: rows 2 and 11 merge (2 merges); rows 3 and 4 conflict (2); 17 − 2 − 2 = 13 create.
  t.same(up.preview.stats, { creates: 13, merges: 2, conflicts: 2, skips: 0, totalRows: 17, validContacts: 17 });
  t.same(up.rejected, []);
  const evidence = up.preview.evidence as Evidence[];
  const domain = evidence.find((e) => e.type === 'EMAIL_DOMAIN');
  t.same(sorted(domain?.nodeIds ?? []), ['row_0', 'row_1'], 'rows 1 and 2 share hollybankhomes.example.co.uk');
  t.match(domain?.reason, /hollybankhomes\.example\.co\.uk/);
  const vat = evidence.find((e) => e.type === 'VAT_NUMBER');
  t.same(sorted(vat?.nodeIds ?? []), ['row_10', 'row_9'], 'rows 10 and 11: GB999 4410 27 and GB 999 4410 27 are one number');
  t.match(vat?.reason, /GB999441027/);
  const conflict = (up.preview.outcomes as Outcome[]).filter((o) => o.type === 'CONFLICT');
  t.same(
    conflict.map((o) => sorted(o.nodeIds)),
    [['row_2', 'row_3']],
  );
  // Rows 5 and 6 are individuals on gmail.com: no evidence joins them to anything, each creates alone.
  t.notOk(
    evidence.some((e) => e.nodeIds.includes('row_4') || e.nodeIds.includes('row_5')),
    'gmail.com is no identity',
  );
  for (const row of ['row_4', 'row_5'])
    t.ok((up.preview.outcomes as Outcome[]).some((o) => o.type === 'CREATE' && o.nodeIds.length === 1 && o.nodeIds[0] === row));
  t.same((await api.request('GET', `/v1/contact-imports/${up.importId}`)).body.data.preview.stats, up.preview.stats, 'GET shows the same preview');

  // The upload stored the import and nothing else.
  const afterUpload = await tally(books);
  t.same(afterUpload, { ...empty, data_imports: empty.data_imports + 1 });

  // Refusals while processing, each writing nothing.
  expectError(t, await api.request('POST', `/v1/contact-imports/${up.importId}/confirm`), 409, 'conflict', { message: /resolve/ });
  expectError(t, await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [] } }), 400, 'validation_error', {
    field: 'resolutions',
  });
  expectError(
    t,
    await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ link: ['row_2', 'row_99'] }] } }),
    400,
    'validation_error',
    { message: /row_99/ },
  );
  expectError(
    t,
    await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ skip: 'ledger_cont_nope' }] } }),
    400,
    'validation_error',
  );
  t.same(await tally(books), afterUpload, 'the refused requests left no trace');
  t.equal((await api.request('GET', `/v1/contact-imports/${up.importId}`)).body.data.status, 'processing', 'and the import is still processing');

  const split = await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ split: ['row_2', 'row_3'] }] } });
  t.equal(split.status, 200, JSON.stringify(split.body.error ?? ''));
  t.equal(split.body.data.status, 'pending');
  t.equal(split.body.data.canConfirm, true);
  // Split: rows 3 and 4 each create; 13 + 2 = 15 creates, 2 merges; 15 + 2 = 17.
  t.same(split.body.data.preview.stats, { creates: 15, merges: 2, conflicts: 0, skips: 0, totalRows: 17, validContacts: 17 });
  const pending = await tally(books);
  expectError(
    t,
    await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ link: ['row_2', 'row_3'] }] } }),
    409,
    'conflict',
  );
  t.same(await tally(books), pending, 'resolve while pending is refused and writes nothing');

  const done = await confirm(t, api, up.importId);
  // 15 created + 2 merged + 0 skipped + 0 rejected = 17.
  t.same(done, { importId: up.importId, created: 15, merged: 2, skipped: 0, rejected: 0, total: 17 });
  const completed = await tally(books);
  expectError(t, await api.request('POST', `/v1/contact-imports/${up.importId}/confirm`), 409, 'conflict');
  expectError(t, await api.request('DELETE', `/v1/contact-imports/${up.importId}`), 409, 'conflict');
  expectError(t, await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ skip: 'row_3' }] } }), 409, 'conflict');
  t.same(await tally(books), completed, 'confirm twice, delete and resolve of a completed import write nothing');
  const record = (await api.request('GET', `/v1/contact-imports/${up.importId}`)).body.data;
  t.equal(record.status, 'completed');
  t.match(record.import, { status: 'completed', totalRows: 17, createdCount: 15, mergedCount: 2, errorCount: 0 });
  const list = await api.request('GET', '/v1/contact-imports');
  t.equal(list.status, 200);
  t.same(
    list.body.data.map((r: { id: string }) => r.id),
    [up.importId],
  );

  const contacts = await contactsByName(api);
  t.equal(contacts.size, 15);
  t.match(contacts.get('Hollybank Homes Ltd'), {
    contactType: 'customer',
    email: 'accounts@hollybankhomes.example.co.uk',
    phone: '0113 496 0412',
    addressLine1: 'Hollybank House',
    city: 'Leeds',
    postalCode: 'LS15 8QJ',
    vatNumber: 'GB999204861',
    companyNumber: '99004512',
    paymentTerms: 30,
  });
  t.notOk(contacts.has('Hollybank Homes (Site Office)'), 'the site office merged into Hollybank Homes Ltd');
  t.match(contacts.get('Cooper & Vale Architects LLP'), { vatNumber: 'GB999317205', companyNumber: 'OC999412', postalCode: 'LS11 5WH' });
  t.match(contacts.get('Cooper & Vail Architects'), { email: null, vatNumber: null, companyNumber: null, postalCode: 'LS11 5WH' }, 'split: kept apart');
  t.match(contacts.get('Marston Timber Supplies Ltd'), {
    contactType: 'supplier',
    vatNumber: 'GB999441027',
    companyNumber: '99112233',
    phone: '0113 496 0260',
  });
  t.notOk(contacts.has('Marston Timber (Wakefield Branch)'), 'the branch merged by its VAT number');
  t.match(contacts.get('Tate & Ramsden LLP'), { companyNumber: 'OC999087', vatNumber: 'GB999183652' });
  t.match(contacts.get('Eleanor Whitfield'), { email: 'eleanor.whitfield@gmail.com', vatNumber: null });
  t.match(contacts.get('Daniel Okafor'), { email: 'd.okafor84@gmail.com', vatNumber: null });
  t.match(contacts.get('Armley Van Hire Ltd'), { contactType: 'supplier', email: 'hire@armleyvanhire.example.co.uk' });

  // The same file again: every row is a contact already (README: "re-importing the same file gives merges, not duplicates").
  const again = await reimport(t, api, file, 17, 'split');
  t.match(again, { created: 0, merged: 17, skipped: 0, rejected: 0, total: 17 });
  t.equal((await contactsByName(api)).size, 15, 'no contact added by the re-import');
});

t.test('QuickBooks: link merges the near-duplicate; VAT written two ways merges; gmail on the merged row does not count', async (t) => {
  const { books, api } = await world(t);
  const file = fixture('quickbooks/contacts.csv');
  const up = await upload(t, api, file);
  t.equal(up.status, 'processing');
  // 16 rows: rows 2 and 11 merge (2); rows 12 and 13 conflict (2); 16 − 2 − 2 = 12 create.
  t.same(up.preview.stats, { creates: 12, merges: 2, conflicts: 2, skips: 0, totalRows: 16, validContacts: 16 });
  t.same(
    (up.preview.outcomes as Outcome[]).filter((o) => o.type === 'CONFLICT').map((o) => sorted(o.nodeIds)),
    [['row_11', 'row_12']],
    'Roastworks Coffee Ltd / Roast Works Coffee',
  );
  const evidence = up.preview.evidence as Evidence[];
  t.same(sorted(evidence.find((e) => e.type === 'VAT_NUMBER')?.nodeIds ?? []), ['row_10', 'row_9'], 'GB999744890 = GB 999 7448 90');
  t.same(sorted(evidence.find((e) => e.type === 'EMAIL_DOMAIN')?.nodeIds ?? []), ['row_0', 'row_1'], 'angliaofficepark.example.co.uk');
  t.notOk(
    evidence.some((e) => e.type === 'EMAIL_DOMAIN' && /gmail/.test(e.reason)),
    'gmail.com joins nothing',
  );
  for (const row of ['row_5', 'row_6'])
    t.notOk(
      evidence.some((e) => e.nodeIds.includes(row)),
      `${row} (gmail, no company) stands alone`,
    );

  const before = await tally(books);
  const linked = await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ link: ['row_11', 'row_12'] }] } });
  t.equal(linked.status, 200, JSON.stringify(linked.body.error ?? ''));
  t.equal(linked.body.data.status, 'pending');
  // Link: row 13 merges into row 12; 12 + 1 = 13 creates, 2 + 1 = 3 merges; 13 + 3 = 16.
  t.same(linked.body.data.preview.stats, { creates: 13, merges: 3, conflicts: 0, skips: 0, totalRows: 16, validContacts: 16 });
  t.same(await tally(books), before, 'resolving writes no contact');

  const done = await confirm(t, api, up.importId);
  // 13 created + 3 merged + 0 + 0 = 16.
  t.same(done, { importId: up.importId, created: 13, merged: 3, skipped: 0, rejected: 0, total: 16 });
  const contacts = await contactsByName(api);
  t.equal(contacts.size, 13);
  t.notOk(contacts.has('Roast Works Coffee'), 'linked into Roastworks Coffee Ltd');
  t.notOk(contacts.has('Anglia Office Park (Reception)'));
  t.notOk(contacts.has('Fenland Fresh (Wholesale)'));
  t.match(contacts.get('Fenland Fresh Produce Ltd'), {
    contactType: 'supplier',
    email: 'sales@fenlandfresh.example.co.uk',
    vatNumber: 'GB999744890',
    phone: '01632 960724',
    postalCode: 'PE13 4TN',
  });
  t.match(
    contacts.get('Riverside Legal LLP'),
    { vatNumber: 'GB999647312', addressLine1: '2nd Floor, 9 Prince of Wales Road' },
    'GB 999 6473 12 kept without its spaces',
  );
  t.match(contacts.get('Chloe Barnard'), { email: 'chloe.barnard.weddings@gmail.com', paymentTerms: 0 });
  t.match(contacts.get('Tom Ashworth'), { email: 'tomashworth1979@gmail.com', paymentTerms: 14 });
  t.match(contacts.get('Roastworks Coffee Ltd'), { contactType: 'supplier', phone: '01632 960836', vatNumber: 'GB999126735' });

  const again = await reimport(t, api, file, 16, 'link');
  t.match(again, { created: 0, merged: 16, skipped: 0, rejected: 0, total: 16 });
  t.equal((await contactsByName(api)).size, 13, 'no contact added by the re-import');
});

t.test('skip leaves a row out; a pending import can be deleted, a completed one cannot', async (t) => {
  const { books, api } = await world(t);
  const empty = await tally(books);
  const file = fixture('xero/contacts.csv');
  const first = await upload(t, api, file);
  const skipped = await api.request('POST', `/v1/contact-imports/${first.importId}/resolve`, { body: { resolutions: [{ skip: 'row_3' }] } });
  t.equal(skipped.status, 200, JSON.stringify(skipped.body.error ?? ''));
  t.equal(skipped.body.data.status, 'pending');
  // Skip row 4: 13 + 1 (row 3 creates) = 14 creates, 2 merges, 1 skip; 14 + 2 + 1 = 17.
  t.same(skipped.body.data.preview.stats, { creates: 14, merges: 2, conflicts: 0, skips: 1, totalRows: 17, validContacts: 17 });
  const del = await api.request('DELETE', `/v1/contact-imports/${first.importId}`);
  t.equal(del.status, 200);
  t.same(del.body.data, { id: first.importId, deleted: true });
  expectError(t, await api.request('GET', `/v1/contact-imports/${first.importId}`), 404, 'not_found');
  t.same(await tally(books), empty, 'a deleted import leaves nothing');

  const second = await upload(t, api, file);
  await api.request('POST', `/v1/contact-imports/${second.importId}/resolve`, { body: { resolutions: [{ skip: 'row_3' }] } });
  const done = await confirm(t, api, second.importId);
  // 14 created + 2 merged + 1 skipped + 0 rejected = 17.
  t.same(done, { importId: second.importId, created: 14, merged: 2, skipped: 1, rejected: 0, total: 17 });
  const contacts = await contactsByName(api);
  t.equal(contacts.size, 14);
  t.notOk(contacts.has('Cooper & Vail Architects'), 'the skipped row made no contact');
  t.ok(contacts.has('Cooper & Vale Architects LLP'));
});

t.test('FreeAgent: Bramble Books Ltd / Bramble Book Ltd is a conflict (README); VAT merges Pixel Foundry Studio despite its gmail', async (t) => {
  const { api } = await world(t);
  const up = await upload(t, api, fixture('freeagent/contacts.csv'));
  // README: rows 8 and 9, same postcode BA2 5RF, names 92% alike, nothing else: "one conflict left".
  t.equal(up.status, 'processing', 'the README expects a conflict between rows 8 and 9');
  t.same(
    (up.preview.outcomes as Outcome[]).filter((o) => o.type === 'CONFLICT').map((o) => sorted(o.nodeIds)),
    [['row_7', 'row_8']],
  );
  // 17 rows: rows 2 and 14 merge (2); rows 8 and 9 conflict (2); 17 − 2 − 2 = 13 create.
  t.same(up.preview.stats, { creates: 13, merges: 2, conflicts: 2, skips: 0, totalRows: 17, validContacts: 17 });
  const evidence = up.preview.evidence as Evidence[];
  t.same(sorted(evidence.find((e) => e.type === 'VAT_NUMBER')?.nodeIds ?? []), ['row_12', 'row_13'], 'GB999339851 = GB 999 3398 51');
  t.same(sorted(evidence.find((e) => e.type === 'EMAIL_DOMAIN')?.nodeIds ?? []), ['row_0', 'row_1'], 'northgateproperty.example.co.uk');
  if (up.status === 'processing') {
    const r = await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ split: ['row_7', 'row_8'] }] } });
    t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  }
  const done = await confirm(t, api, up.importId);
  // Split (or no conflict): 15 created + 2 merged = 17.
  t.same(done, { importId: up.importId, created: 15, merged: 2, skipped: 0, rejected: 0, total: 17 });
  const contacts = await contactsByName(api);
  t.equal(contacts.size, 15);
  t.match(contacts.get('Tamsin Greaves'), { email: 'tamsin.greaves@gmail.com', paymentTerms: 14 }, 'no Organisation: First + Last Name');
  t.match(contacts.get('Ravi Chandra'), { email: 'ravi.chandra.design@gmail.com' });
  t.match(contacts.get('Pixel Foundry Ltd'), {
    contactType: 'supplier',
    email: 'hello@pixelfoundry.example.com',
    vatNumber: 'GB999339851',
    companyNumber: '99188256',
  });
  t.notOk(contacts.has('Pixel Foundry Studio'));
  t.match(contacts.get('Ashton Gate Accountancy LLP'), { companyNumber: 'OC999552', vatNumber: 'GB999174083' });
  t.match(contacts.get('Oakfield Primary Academy Trust'), { companyNumber: '99744210', vatNumber: null });
});

t.test('a broken file: rows without a name or with a bad e-mail are rejected, the duplicate merges, every row accounted for', async (t) => {
  const { books, api } = await world(t);
  const up = await upload(t, api, fixture('messy/contacts-broken.csv'));
  t.equal(up.status, 'pending');
  // 5 rows: row 2 (line 5) no name, row 3 (line 6) bad e-mail: 2 rejected; rows 1, 4, 5 valid.
  t.same(
    up.rejected.map((r: { rowIndex: number; line: number; field: string }) => [r.rowIndex, r.line, r.field]),
    [
      [1, 5, 'name'],
      [2, 6, 'email'],
    ],
  );
  // Row 5 duplicates row 1 and merges into it: 2 creates (rows 1, 4) + 1 merge = 3 valid.
  t.same(up.preview.stats, { creates: 2, merges: 1, conflicts: 0, skips: 0, totalRows: 5, validContacts: 3 });
  t.same(
    up.schema.parsedRows.map((r: { rowIndex: number; name: string }) => [r.rowIndex, r.name]),
    [
      [0, 'Marlpit Garden Centre Ltd'],
      [3, 'Ketts Hill Catering Supplies Ltd'],
      [4, 'Marlpit Garden Centre Ltd'],
    ],
  );
  const done = await confirm(t, api, up.importId);
  // 2 created + 1 merged + 0 skipped + 2 rejected = 5.
  t.same(done, { importId: up.importId, created: 2, merged: 1, skipped: 0, rejected: 2, total: 5 });
  const contacts = await contactsByName(api);
  t.same([...contacts.keys()].sort(), ['Ketts Hill Catering Supplies Ltd', 'Marlpit Garden Centre Ltd']);
  t.match(
    contacts.get('Ketts Hill Catering Supplies Ltd')?.addressLine1,
    /^Unit 4, Ketts Hill Yard\s+Bishop Bridge Road$/,
    'the quoted cell over two lines is one address',
  );
  t.match(contacts.get('Marlpit Garden Centre Ltd'), {
    vatNumber: 'GB999335072',
    email: 'accounts@marlpitgardens.example.co.uk',
    contactType: 'customer',
    paymentTerms: 30,
  });
  const rows = await books.store
    .org(books.organisationId, 'live')
    .db.selectFrom('data_import_rows')
    .select(['row_index', 'outcome'])
    .where('import_id', '=', up.importId)
    .orderBy('row_index')
    .execute();
  t.same(
    rows.map((r) => [r.row_index, r.outcome]),
    [
      [0, 'created'],
      [1, 'rejected'],
      [2, 'rejected'],
      [3, 'created'],
      [4, 'merged'],
    ],
    'each row recorded once with its outcome',
  );
});

t.test('a UTF-8 BOM and CRLF endings: the header and the last cell read clean; re-importing merges all four', async (t) => {
  const { api } = await world(t);
  const file = fixture('messy/contacts-bom-crlf.csv');
  t.equal(file.charCodeAt(0), 0xfeff, 'the fixture opens with the BOM');
  const up = await upload(t, api, file);
  t.equal(up.status, 'pending');
  t.equal(up.schema.columnMapping.name, '*ContactName', 'the BOM is not part of the first header');
  // 4 rows, no shared domain or VAT number: 4 creates.
  t.same(up.preview.stats, { creates: 4, merges: 0, conflicts: 0, skips: 0, totalRows: 4, validContacts: 4 });
  t.same(up.rejected, []);
  const done = await confirm(t, api, up.importId);
  // 4 created + 0 + 0 + 0 = 4.
  t.same(done, { importId: up.importId, created: 4, merged: 0, skipped: 0, rejected: 0, total: 4 });
  const contacts = await contactsByName(api);
  t.same([...contacts.keys()].sort(), ['Ashdown Cleaning Services', 'Greenhalgh & Sons Ltd', 'Kestrel Print Ltd', 'Zoë Müller']);
  t.match(contacts.get('Greenhalgh & Sons Ltd'), {
    addressLine1: 'Unit 3, Bridge Works',
    vatNumber: 'GB999512840',
    companyNumber: '99630218',
    contactType: 'customer',
  });
  // IsSupplier is the last cell of each line: "Yes\r" would not read as yes.
  t.equal(contacts.get('Ashdown Cleaning Services')?.contactType, 'supplier');
  t.equal(contacts.get('Kestrel Print Ltd')?.contactType, 'supplier');
  t.equal(contacts.get('Zoë Müller')?.email, 'zoe.muller@gmail.com');
  for (const c of contacts.values())
    t.notOk(
      Object.values(c).some((v) => typeof v === 'string' && /\r/.test(v)),
      `${c.name}: no cell ends in \\r`,
    );

  const again = await reimport(t, api, file, 4, 'link');
  t.match(again, { created: 0, merged: 4, skipped: 0, rejected: 0, total: 4 });
  // The same bytes as a raw text/csv body: the BOM is read off there too, and every row merges.
  const raw = await api.request('POST', '/v1/contact-imports/upload?filename=bom.csv', {
    raw: new Uint8Array(fs.readFileSync(projectFile('fixtures/migrations/messy/contacts-bom-crlf.csv'))),
    headers: { 'content-type': 'text/csv' },
  });
  t.equal(raw.status, 201, JSON.stringify(raw.body.error ?? ''));
  t.equal(raw.body.data.filename, 'bom.csv');
  t.equal(raw.body.data.schema.columnMapping.name, '*ContactName');
  t.same(raw.body.data.preview.stats, { creates: 0, merges: 4, conflicts: 0, skips: 0, totalRows: 4, validContacts: 4 });
  t.equal((await contactsByName(api)).size, 4);
});

t.test('a row merging into a contact already in the books fills its blanks and overwrites nothing', async (t) => {
  const { api } = await world(t);
  const made = await api.request('POST', '/v1/contacts', {
    body: { contactType: 'customer', name: 'Kestrel Print Ltd', email: 'accounts@kestrelprint.example.com', addressLine1: 'Old Mill', paymentTerms: 60 },
  });
  t.equal(made.status, 201, JSON.stringify(made.body.error ?? ''));
  const up = await upload(t, api, fixture('messy/contacts-bom-crlf.csv'));
  const outcome = (up.preview.outcomes as (Outcome & { contactId: string | null })[]).find((o) => o.nodeIds.includes('row_2'));
  t.match(outcome, { type: 'MERGE', contactId: made.body.data.id }, 'row 3 joins the contact by its company e-mail domain');
  // 3 creates + 1 merge = 4.
  t.same(up.preview.stats, { creates: 3, merges: 1, conflicts: 0, skips: 0, totalRows: 4, validContacts: 4 });
  const done = await confirm(t, api, up.importId);
  t.same(done, { importId: up.importId, created: 3, merged: 1, skipped: 0, rejected: 0, total: 4 });
  const kestrel = (await contactsByName(api)).get('Kestrel Print Ltd');
  t.match(kestrel, {
    id: made.body.data.id,
    addressLine1: 'Old Mill',
    paymentTerms: 60,
    phone: '0161 496 0627',
    vatNumber: 'GB999770416',
    companyNumber: '99215584',
    postalCode: 'BL2 1EJ',
  });
  // A customer who is a supplier in the file becomes both.
  t.equal(kestrel?.contactType, 'both');
});

t.test('refusals: no name column 400, past 5 MB 413, a read-only key 403: nothing written', async (t) => {
  const { books, api } = await world(t);
  const { key } = await createKey(t, api, { name: 'contacts reader', scopes: ['contacts:read'] });
  const before = await tally(books);
  expectError(
    t,
    await api.request('POST', '/v1/contact-imports/upload', { body: { file: 'Email,Phone\nsales@kestrelprint.example.com,0161 496 0627\n' } }),
    400,
    'validation_error',
    { field: 'file' },
  );
  const big = `Name,Email\n${'Kestrel Print Ltd,accounts@kestrelprint.example.com\n'.repeat(110_000)}`;
  // 52 characters a line × 110,000 = 5,720,000 bytes > 5 × 1,048,576 = 5,242,880.
  t.ok(big.length > 5 * 1024 * 1024);
  expectError(t, await api.request('POST', '/v1/contact-imports/upload', { raw: big, headers: { 'content-type': 'text/csv' } }), 413, 'payload_too_large');
  const denied = await api.request('POST', '/v1/contact-imports/upload', { key, body: { file: fixture('xero/contacts.csv') } });
  expectError(t, denied, 403, 'insufficient_scope');
  t.match(denied.body.error.message, /contacts:write/);
  t.same(await tally(books), before, 'the refused uploads left no trace');
  t.equal((await api.request('GET', '/v1/contact-imports', { key })).status, 200, 'contacts:read may list');

  // Resolve, confirm and delete need contacts:write too: each refused with the read-only key, writing nothing.
  const up = await upload(t, api, fixture('xero/contacts.csv'));
  t.equal(up.status, 'processing', 'Cooper & Vale / Cooper & Vail wait to be resolved');
  const uploaded = await tally(books);
  const resolve = await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { key, body: { resolutions: [{ split: ['row_2', 'row_3'] }] } });
  expectError(t, resolve, 403, 'insufficient_scope', { message: /contacts:write/ });
  t.same(await tally(books), uploaded, 'the refused resolve left no trace');
  t.equal((await api.request('GET', `/v1/contact-imports/${up.importId}`)).body.data.status, 'processing', 'the conflict still waits');
  // Resolved with the full key, the import is pending: a confirm would write 15 contacts.
  const split = await api.request('POST', `/v1/contact-imports/${up.importId}/resolve`, { body: { resolutions: [{ split: ['row_2', 'row_3'] }] } });
  t.equal(split.body.data.status, 'pending');
  const pending = await tally(books);
  expectError(t, await api.request('POST', `/v1/contact-imports/${up.importId}/confirm`, { key }), 403, 'insufficient_scope', { message: /contacts:write/ });
  expectError(t, await api.request('DELETE', `/v1/contact-imports/${up.importId}`, { key }), 403, 'insufficient_scope', { message: /contacts:write/ });
  t.same(await tally(books), pending, 'the refused confirm and delete left no trace');
  const still = (await api.request('GET', `/v1/contact-imports/${up.importId}`, { key })).body.data;
  t.equal(still.status, 'pending', 'not confirmed, not deleted');
  t.same((await api.request('GET', '/v1/contacts')).body.data, [], 'no contact written');
});

t.test('a row that is exactly one of two contacts sharing a company domain merges into that one, not the one created first', async (t) => {
  const { api } = await world(t);
  const make = async (name: string, email: string) => {
    const r = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name, email } });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
    return r.body.data.id as string;
  };
  const widgets = await make('Acme Widgets', 'sales@acme.co.uk');
  const north = await make('Acme North', 'north@acme.co.uk');
  const up = await upload(t, api, 'Name,Email,Phone\nAcme North,north@acme.co.uk,0113 111 2222\n');
  t.equal(up.status, 'pending');
  t.same(up.preview.stats, { creates: 0, merges: 1, conflicts: 0, skips: 0, totalRows: 1, validContacts: 1 });
  t.match(up.decisions, [{ action: 'merge', contactId: north, reason: /^merges into \S+ \(Acme North\)/ }]);
  t.same(await confirm(t, api, up.importId), { importId: up.importId, created: 0, merged: 1, skipped: 0, rejected: 0, total: 1 });
  const byName = await contactsByName(api);
  t.match(byName.get('Acme North'), { id: north, phone: '0113 111 2222' }, 'the phone goes to the contact the row is');
  t.match(byName.get('Acme Widgets'), { id: widgets, phone: null }, 'and not to the one created first');

  // The same e-mail address picks the contact when the name differs; the same name when the e-mail does.
  const byEmail = await upload(t, api, 'Name,Email\nAcme North Depot,north@acme.co.uk\nAcme North,depot@acme.co.uk\n');
  t.match(byEmail.decisions, [
    { action: 'merge', contactId: north },
    { action: 'merge', contactId: north },
  ]);

  // A row on the domain that is neither: which contact is not the import's to guess. A conflict, settled by a link.
  const neither = await upload(t, api, 'Name,Email\nAcme Sales,orders@acme.co.uk\n');
  t.equal(neither.status, 'processing');
  t.same(neither.preview.stats, { creates: 0, merges: 0, conflicts: 1, skips: 0, totalRows: 1, validContacts: 1 });
  t.same(
    (neither.preview.outcomes as Outcome[]).map((o) => [o.type, sorted(o.nodeIds)]),
    [['CONFLICT', sorted(['row_0', `ledger_${widgets}`, `ledger_${north}`])]],
  );
  const linked = await api.request('POST', `/v1/contact-imports/${neither.importId}/resolve`, {
    body: { resolutions: [{ link: ['row_0', `ledger_${north}`] }] },
  });
  t.equal(linked.status, 200, JSON.stringify(linked.body.error ?? ''));
  t.equal(linked.body.data.status, 'pending');
  t.match(linked.body.data.decisions, [{ action: 'merge', contactId: north }]);
  const more = await api.request('POST', `/v1/contact-imports/${byEmail.importId}/resolve`, { body: { resolutions: [{ skip: 'row_0' }] } });
  t.equal(more.status, 409, 'an import with no conflict has nothing to resolve');
});

t.test('two businesses on BT business mail stay two; a shared domain between names with no word in common is a conflict, not a merge', async (t) => {
  const { api } = await world(t, { businessType: 'sole_trader' });
  // btconnect.com is BT's business mail: anyone may have an address there, so it says nothing of who the business is.
  const bt = await upload(
    t,
    api,
    'Name,Email,Phone\nSmith Builders,smithbuilders@btconnect.com,01632 960001\nJones Plumbing,jonesplumbing@btconnect.com,01632 960002\n',
  );
  t.equal(bt.status, 'pending');
  t.same(bt.preview.stats, { creates: 2, merges: 0, conflicts: 0, skips: 0, totalRows: 2, validContacts: 2 });
  t.notOk(
    (bt.preview.evidence as Evidence[]).some((e) => e.type === 'EMAIL_DOMAIN'),
    'btconnect.com is no identity',
  );
  // 2 created + 0 merged = 2 rows.
  t.same(await confirm(t, api, bt.importId), { importId: bt.importId, created: 2, merged: 0, skipped: 0, rejected: 0, total: 2 });
  const byName = await contactsByName(api);
  t.match(byName.get('Smith Builders'), { email: 'smithbuilders@btconnect.com', phone: '01632 960001' });
  t.match(byName.get('Jones Plumbing'), { email: 'jonesplumbing@btconnect.com', phone: '01632 960002' });
  for (const domain of ['talk21.com', 'tesco.net', 'plus.net', 'eircom.net', 'yahoo.ie', 'hotmail.fr']) {
    const up = await upload(t, api, `Name,Email\nAsh Joinery,ash@${domain}\nBirch Tiling,birch@${domain}\n`);
    t.match(up.preview.stats, { creates: 2, merges: 0, conflicts: 0 }, `${domain} is a mailbox provider's`);
    t.equal((await api.request('DELETE', `/v1/contact-imports/${up.importId}`)).status, 200);
  }

  // A provider not on the list: the same domain alone does not make Smith Builders and Jones Plumbing one business.
  const isp = await upload(
    t,
    api,
    'Name,Email\nOak Roofing,oak@smallisp.example.net\nElm Glazing,elm@smallisp.example.net\nOak Roofing Repairs,repairs@smallisp.example.net\n',
  );
  t.equal(isp.status, 'processing');
  // Rows 0 and 2 share the word "oak" and merge; row 1 shares no word with them: a conflict holding all three.
  t.same(isp.preview.stats, { creates: 0, merges: 0, conflicts: 3, skips: 0, totalRows: 3, validContacts: 3 });
  t.match(
    (isp.preview.evidence as Evidence[]).map((e) => [e.type, e.nodeIds, e.reason]),
    [
      ['EMAIL_DOMAIN', ['row_0', 'row_2'], 'the same company e-mail domain smallisp.example.net'],
      ['EMAIL_DOMAIN', ['row_1', 'row_0'], /"Elm Glazing" \/ "Oak Roofing" share no word: not merged/],
    ],
  );
  const split = await api.request('POST', `/v1/contact-imports/${isp.importId}/resolve`, { body: { resolutions: [{ split: ['row_0', 'row_1'] }] } });
  t.equal(split.status, 200, JSON.stringify(split.body.error ?? ''));
  t.equal(split.body.data.status, 'pending');
  // Split: rows 0 + 2 one contact (1 create, 1 merge), row 1 its own (1 create): 2 + 1 = 3.
  t.same(split.body.data.preview.stats, { creates: 2, merges: 1, conflicts: 0, skips: 0, totalRows: 3, validContacts: 3 });

  // Against a contact in the books too: a row on its domain with a name that shares no word with it waits for a person.
  const made = await api.request('POST', '/v1/contacts', { body: { contactType: 'customer', name: 'Hollins Joinery', email: 'office@hollins.example.co.uk' } });
  t.equal(made.status, 201);
  const row = await upload(t, api, 'Name,Email,Phone\nPeak Scaffolding,peak@hollins.example.co.uk,01632 960003\n');
  t.equal(row.status, 'processing');
  t.same(
    (row.preview.outcomes as Outcome[]).map((o) => [o.type, o.nodeIds]),
    [['CONFLICT', ['row_0', `ledger_${made.body.data.id}`]]],
  );
});

t.test("QuickBooks Online's billing address columns are read as the address", async (t) => {
  const { api } = await world(t);
  const file = [
    'Customer,Email,Billing Address Line 1,Billing Address Line 2,Billing Address City,Billing Address County,Billing Address Postal Code,Billing Address Country',
    'Kestrel Print Ltd,accounts@kestrelprint.example.co.uk,Unit 4 Mill Lane,Hebden Bridge,Halifax,West Yorkshire,hx7 8aa,United Kingdom',
  ].join('\n');
  const up = await upload(t, api, file);
  t.match(up.schema.columnMapping, {
    name: 'Customer',
    addressLine1: 'Billing Address Line 1',
    addressLine2: 'Billing Address Line 2',
    city: 'Billing Address City',
    region: 'Billing Address County',
    postalCode: 'Billing Address Postal Code',
    country: 'Billing Address Country',
  });
  await confirm(t, api, up.importId);
  t.match((await contactsByName(api)).get('Kestrel Print Ltd'), {
    addressLine1: 'Unit 4 Mill Lane',
    addressLine2: 'Hebden Bridge',
    city: 'Halifax',
    region: 'West Yorkshire',
    postalCode: 'HX7 8AA',
  });
});
