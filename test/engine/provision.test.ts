import t from 'tap';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { fixedClock } from '../../src/engine/clock.js';
import { AppError } from '../../src/engine/errors.js';
import { insertUser } from '../../src/engine/users/users.js';
import { booksExist, newBooks, openTestStore, storedText } from '../helpers/index.js';

t.test('the UK chart: named accounts, ranges, system and control flags', async (t) => {
  const books = await newBooks(t);
  const accounts = await books.store.org(books.organisationId, 'live').db.selectFrom('accounts').selectAll().orderBy('code').execute();
  const byCode = new Map(accounts.map((a) => [a.code, a]));
  const named: [string, string, string][] = [
    ['1100', 'Accounts Receivable', 'asset'],
    ['1198', 'Receivables Migration Clearing', 'asset'],
    ['1200', 'Bank Account', 'asset'],
    ['2100', 'Accounts Payable', 'liability'],
    ['2198', 'Payables Migration Clearing', 'liability'],
    ['2200', 'VAT Output', 'liability'],
    ['2201', 'VAT Input', 'liability'],
    ['3000', 'Share Capital', 'equity'],
    ['3100', 'Retained Earnings', 'equity'],
    ['4000', 'Sales', 'revenue'],
    ['5000', 'Cost of Sales', 'expense'],
    ['5100', 'Office Expenses', 'expense'],
    ['9999', 'Suspense', 'asset'],
  ];
  for (const [code, name, type] of named) {
    t.match(byCode.get(code), { name, account_type: type }, code);
  }
  for (const code of ['1100', '1198', '1200', '2100', '2198', '2200', '2201', '3100', '4000', '9999']) {
    t.equal(byCode.get(code)?.is_system, 1, `${code} is a system account`);
  }
  t.equal(byCode.get('5100')?.is_system, 0, '5100 is not a system account');
  t.match(byCode.get('1100'), { is_control_account: 1, control_type: 'receivables' });
  t.match(byCode.get('1200'), { is_control_account: 1, control_type: 'bank' });
  t.match(byCode.get('2100'), { is_control_account: 1, control_type: 'payables' });
  t.match(byCode.get('2200'), { is_control_account: 1, control_type: 'vat' });
  const range: Record<string, [number, number]> = {
    asset: [1000, 1999],
    liability: [2000, 2999],
    equity: [3000, 3999],
    revenue: [4000, 4999],
    expense: [5000, 5999],
  };
  for (const a of accounts) {
    if (a.code === '9999') continue;
    const [lo, hi] = range[a.account_type] ?? [0, 0];
    t.ok(Number(a.code) >= lo && Number(a.code) <= hi, `${a.code} ${a.name} lies in the ${a.account_type} range`);
    if (a.parent_id !== null) {
      t.equal(accounts.find((p) => p.id === a.parent_id)?.account_type, a.account_type, `${a.code} has its parent's type`);
    }
  }
});

t.test('a sole trader gets owner accounts instead of share capital and dividends', async (t) => {
  const books = await newBooks(t, { organisation: { businessType: 'sole_trader', vatScheme: 'not_registered' } });
  const accounts = await books.store.org(books.organisationId, 'live').db.selectFrom('accounts').select(['code', 'name']).execute();
  const names = new Map(accounts.map((a) => [a.code, a.name]));
  t.equal(names.get('3000'), "Owner's Capital");
  t.equal(names.get('3200'), "Owner's Drawings");
  t.equal(accounts.length, 45, '43 common accounts (2202 VAT Liability and 4300 Flat Rate Scheme Surplus among them) and 2 for sole traders only');
  t.notOk(names.has('2300'), 'no corporation tax account');
  t.notOk(names.has('2400'), "no director's loan account");
});

t.test('live and test books are provisioned alike, in separate files', async (t) => {
  const books = await newBooks(t);
  t.ok(await booksExist(books.store, books.dataDir, books.organisationId, 'live'));
  t.ok(await booksExist(books.store, books.dataDir, books.organisationId, 'test'));
  const codes = async (mode: 'live' | 'test') =>
    (await books.store.org(books.organisationId, mode).db.selectFrom('accounts').select('code').orderBy('code').execute()).map((r) => r.code);
  const live = await codes('live');
  t.equal(live.length, 48, '43 common accounts and 5 for companies only');
  t.same(await codes('test'), live);
});

t.test('fiscal year start defaults by business type', async (t) => {
  const company = await newBooks(t);
  const trader = await newBooks(t, { organisation: { businessType: 'sole_trader' } });
  const start = async (b: typeof company) =>
    (await b.store.org(b.organisationId, 'live').db.selectFrom('organisation').select('fiscal_year_start').executeTakeFirstOrThrow()).fiscal_year_start;
  t.equal(await start(company), '04-01');
  t.equal(await start(trader), '04-06');
});

t.test('while fewer than 50 organisations have a verified signup a new one gets a 90-day trial, then 30', async (t) => {
  const store = await openTestStore(t, t.testdir());
  const clock = fixedClock('2026-11-21T12:00:00.000Z');
  const make = async (i: number) =>
    (await createOrganisation(store, clock, { name: `Org ${i}`, businessType: 'sole_trader', vatScheme: 'not_registered' })).organisationId;
  /** A user of the organisation: verified or not, an administrator or not. */
  const user = (organisationId: string, i: number, { verified = true, admin = false } = {}) =>
    store.platform.write(async (trx) => {
      const u = await insertUser(trx, clock, { organisationId, email: `u${i}@example.com`, fullName: `User ${i}`, passwordHash: 'x', isAdmin: admin });
      if (verified) await trx.updateTable('users').set({ email_verified: 1 }).where('id', '=', u.id).execute();
    });
  const ids: string[] = [];
  for (let i = 0; i < 49; i++) {
    ids.push(await make(i));
    await user(ids[i]!, i);
  }
  // Two more users of the first organisation: it still claims one spot.
  await user(ids[0]!, 100);
  // Neither an unverified user nor a verified administrator claims one.
  const unclaimed = await make(200);
  await user(unclaimed, 200, { verified: false });
  await user(unclaimed, 201, { admin: true });
  const fiftieth = await make(49);
  await user(fiftieth, 49);
  const fifty1st = await make(50);
  const rows = await store.platform.db.selectFrom('organisations').selectAll().execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  // 90 days from 21 November 2026 12:00: 9 (to 30 November) + 31 + 31 + 19 = 90, so 19 February 2027.
  t.match(byId.get(ids[0]!), { trial_days: 90, early_access: 1, trial_ends_at: '2027-02-19T12:00:00.000Z' });
  t.match(byId.get(unclaimed), { trial_days: 90, early_access: 1 }, '49 spots claimed when it was made');
  t.match(byId.get(fiftieth), { trial_days: 90, early_access: 1 }, 'still 49 claimed when the 50th was made');
  // 30 days from 21 November 2026 12:00: 21 December 2026.
  t.match(byId.get(fifty1st), { trial_days: 30, early_access: 0, trial_ends_at: '2026-12-21T12:00:00.000Z' }, 'all 50 claimed');
});

t.test('each organisation gets a live and a test key with all scopes, stored as hashes', async (t) => {
  const books = await newBooks(t);
  const keys = await books.store.platform.db.selectFrom('api_keys').selectAll().where('organisation_id', '=', books.organisationId).execute();
  t.same(keys.map((k) => k.mode).sort(), ['live', 'test']);
  for (const k of keys) {
    t.equal(JSON.parse(k.scopes).length, 17);
    t.match(k.key_hash, /^[0-9a-f]{64}$/);
  }
  const text = await storedText(books.store, books.store.platform.db, `${books.dataDir}/platform.sqlite`);
  t.notOk(text.includes(books.apiKey), 'the plain key is not in the platform database');
  t.match(books.apiKey, /^sk_live_[0-9A-Za-z]{32}$/);
  t.match(books.testApiKey, /^sk_test_[0-9A-Za-z]{32}$/);
});

t.test('the flat rate scheme needs its percentage, and only it takes one', async (t) => {
  const store = await openTestStore(t, t.testdir());
  const clock = fixedClock('2026-11-21T12:00:00Z');
  await t.rejects(createOrganisation(store, clock, { name: 'A', businessType: 'sole_trader', vatScheme: 'flat_rate' }), {
    code: 'validation_error',
    field: 'vatFlatRatePercent',
  });
  await t.rejects(
    createOrganisation(store, clock, { name: 'A', businessType: 'sole_trader', vatScheme: 'standard', vatFlatRatePercent: 12.5 }),
    new AppError('validation_error', 'a flat rate percentage applies only to the flat_rate scheme', 'vatFlatRatePercent'),
  );
  const rows = await store.platform.db.selectFrom('organisations').selectAll().execute();
  t.equal(rows.length, 0, 'nothing was created');
});
