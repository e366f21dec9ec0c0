/**
 * Shared by the property tests of the ledger (not a test file itself): the
 * books under test behind a real HTTP server, the posting rules restated
 * here from issue 3 so that the model stands apart from src/, the
 * generators, and the checks of the whole ledger run after every case.
 *
 * Checks inside a property throw (node:assert) so that fast-check sees the
 * failure and shrinks it; each tap test asserts once, when the property holds.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import type { Test } from 'tap';
import { defaultOrganisation, newBooks, serveBooks, userTables, type Api, type Books, type Reply } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import type { OrgDb } from '../../src/store/tables.js';

/** A fixed clock: FY 2026/27 is current, FY 2025/26 has ended and can be closed. */
export const clock = '2026-11-21T10:00:00Z';
/** A fixed seed so that CI replays the same cases; change it locally to explore. */
export const seed = 20261121;
export const closedPeriod = { id: 'period_20250401', start: '2025-04-01', end: '2026-03-31' } as const;
/**
 * The largest amount of one line, in pence (£100bn): the bound posting.ts
 * documents, restated so the model does not import the code it checks.
 */
export const maxLineAmount = 10_000_000_000_000;

/** Inside the closed year, or before it: closing a year closes the years before it, as a lock date does. */
export const isClosed = (date: string): boolean => date <= closedPeriod.end;

export interface LineBody {
  accountId: string;
  amount: unknown;
}

export interface TxnBody {
  date: string;
  description: string;
  status?: 'draft' | 'posted';
  lines: LineBody[];
}

/** One server per tap test, over a data directory in which each ledger is an organisation. */
export interface Bench {
  readonly books: Books;
  readonly api: Api;
}

export async function openBench(t: Test): Promise<Bench> {
  const books = await newBooks(t, { clock });
  return { books, api: await serveBooks(t, books) };
}

/** One organisation's books, reached over the bench's server with that organisation's key. */
export interface Ledger {
  readonly api: Api;
  readonly db: Kysely<OrgDb>;
  /** Every account id of the chart. */
  readonly accounts: readonly string[];
  /** Account code to id (the codes are the same in every organisation, the ids are not). */
  readonly ids: ReadonlyMap<string, string>;
  /** A user account deactivated before the properties run. */
  readonly inactive: string;
  /** Another user account, active at the start (the operations property switches it on and off). */
  readonly spare: string;
  /** Every table of the organisation database, for counting rows. */
  readonly tables: readonly string[];
}

/** What the request did, for assertion messages. */
export const show = (r: Reply): string => `${r.status} ${JSON.stringify(r.body)}`;

/** The user accounts the properties deactivate (`inactive`) and switch off and on (`spare`): the last two by code. */
export function chosenCodes(accounts: readonly { code: string; isSystem: boolean }[]): { inactive: string; spare: string } {
  const user = accounts
    .filter((a) => !a.isSystem)
    .map((a) => a.code)
    .sort();
  assert.ok(user.length >= 2, 'the chart has at least two user accounts');
  return { inactive: user[user.length - 1]!, spare: user[user.length - 2]! };
}

let organisations = 0;

/**
 * A new organisation in the bench's data directory: `beforeClose` may write
 * into FY 2025/26 before that year is closed over HTTP; then one user
 * account is deactivated.
 */
export async function openLedger(bench: Bench, beforeClose?: (l: Ledger) => Promise<void>): Promise<Ledger> {
  const { books } = bench;
  const created = await createOrganisation(books.store, books.clock, { ...defaultOrganisation, name: `Property Ltd ${++organisations}` });
  const api: Api = {
    url: bench.api.url,
    request: (method, path, options = {}) => bench.api.request(method, path, { ...options, key: options.key === undefined ? created.apiKey : options.key }),
  };
  const db = books.store.org(created.organisationId, 'live').db;

  const list = await api.request('GET', '/v1/accounts?flat=true');
  assert.equal(list.status, 200, show(list));
  const all = list.body.data.accounts as { id: string; code: string; isSystem: boolean; isActive: boolean }[];
  assert.ok(
    all.every((a) => a.isActive),
    'a new chart starts all active',
  );
  const ids = new Map(all.map((a) => [a.code, a.id]));
  const codes = chosenCodes(all);
  // account_days is derived from the lines, and the request log grows with every request, in batches.
  const tables = { rows: (await userTables(db)).filter((name) => name !== 'account_days' && name !== 'request_log').map((name) => ({ name })) };
  const l: Ledger = {
    api,
    db,
    accounts: all.map((a) => a.id),
    ids,
    inactive: ids.get(codes.inactive)!,
    spare: ids.get(codes.spare)!,
    tables: tables.rows.map((r) => r.name),
  };

  if (beforeClose) await beforeClose(l);

  const close = await api.request('POST', `/v1/reports/periods/${closedPeriod.id}/close`, { body: {} });
  assert.equal(close.status, 200, show(close));
  assert.equal(close.body.data.isClosed, true);

  const off = await api.request('PUT', `/v1/accounts/${l.inactive}`, { body: { isActive: false } });
  assert.equal(off.status, 200, show(off));
  const check = await api.request('GET', `/v1/accounts/${l.inactive}`);
  assert.equal(check.body.data.isActive, false, 'the account is inactive');
  return l;
}

/** The accounts active now, read from the database. */
export async function activeAccounts(l: Ledger): Promise<Set<string>> {
  const rows = await l.db.selectFrom('accounts').select('id').where('is_active', '=', 1).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The account codes of the chart (the same in every organisation), read through GET /accounts?flat=true;
 * `journal`: those a manual journal may post to, all but the receivables and payables control accounts (1100, 2100),
 * which documents keep (test/ledger-http/control-accounts.test.ts holds the refusal).
 */
export async function chartCodes(l: Ledger): Promise<{ all: string[]; journal: string[]; inactive: string; spare: string }> {
  const list = await l.api.request('GET', '/v1/accounts?flat=true');
  const all = list.body.data.accounts as { code: string; isSystem: boolean; controlType: string | null }[];
  const journal = all.filter((a) => a.controlType !== 'receivables' && a.controlType !== 'payables').map((a) => a.code);
  return { all: all.map((a) => a.code), journal, ...chosenCodes(all) };
}

// ---------------------------------------------------------------------------
// The model: the posting rules, written without reading posting.ts.

/**
 * Why posting must refuse these lines, or null when it must accept them:
 * at least 2 lines; each amount a non-zero whole number of pence no larger
 * than maxLineAmount; every account known and active; the sum exactly 0.
 */
export function linesProblem(lines: readonly LineBody[], active: ReadonlySet<string>): string | null {
  if (lines.length < 2) return `${lines.length} line(s)`;
  let sum = 0n;
  for (const [i, line] of lines.entries()) {
    const a = line.amount;
    if (typeof a !== 'number' || !Number.isInteger(a)) return `lines[${i}].amount ${JSON.stringify(a)} is not a whole number`;
    if (a === 0) return `lines[${i}].amount is 0`;
    if (Math.abs(a) > maxLineAmount) return `lines[${i}].amount ${a} is beyond ${maxLineAmount}`;
    if (!active.has(line.accountId)) return `lines[${i}].accountId ${line.accountId} is unknown or inactive`;
    sum += BigInt(a);
  }
  return sum === 0n ? null : `lines sum to ${sum}`;
}

/** The status a create must answer: 201, 400 for bad lines, 422 for a closed date. */
export function expectedCreateStatus(body: TxnBody, active: ReadonlySet<string>): { status: 201 | 400 | 422; why: string } {
  const problem = linesProblem(body.lines, active);
  if (problem) return { status: 400, why: problem };
  if (isClosed(body.date)) return { status: 422, why: `${body.date} is in the closed period` };
  return { status: 201, why: 'valid' };
}

// ---------------------------------------------------------------------------
// Generators.

type Mutation =
  { kind: 'zero' } | { kind: 'inactive' } | { kind: 'unknown'; id: string } | { kind: 'pounds'; value: number } | { kind: 'string' } | { kind: 'over-limit' };

interface LineSpec {
  /** An account code, turned into the ledger's id when the lines are built. */
  account: string;
  amount: number;
  mutation: Mutation | null;
}

export interface TxnSpec {
  lines: LineSpec[];
  balanced: boolean;
  status: 'draft' | 'posted' | undefined;
  date: string;
  description: string;
}

const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const dayIn = (from: string, to: string): fc.Arbitrary<string> =>
  fc.integer({ min: dayNumber(from), max: dayNumber(to) }).map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));

/** Dates in open years only: after the closed FY 2025/26, its day after included. */
export const openDate: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: dayIn('2026-04-01', '2027-03-31') },
  { weight: 1, arbitrary: fc.constantFrom('2026-04-01') },
);

/** Mostly open dates, sometimes inside the closed FY 2025/26 (its first and last days included) or in the year before it, closed with it. */
export const anyDate: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: openDate },
  { weight: 1, arbitrary: dayIn(closedPeriod.start, closedPeriod.end) },
  { weight: 1, arbitrary: fc.constantFrom(closedPeriod.start, closedPeriod.end, '2025-03-31') },
  { weight: 1, arbitrary: dayIn('2024-04-01', '2025-03-31') },
);

const base32 = '0123456789abcdefghjkmnpqrstvwxyz';
const unknownAccount: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...base32), minLength: 26, maxLength: 26 }).map((s) => `acc_${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('acc_', 'ACC_1', 'cont_0000000000000000000000000') },
);

const mutation: fc.Arbitrary<Mutation | null> = fc.oneof(
  { weight: 80, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant({ kind: 'zero' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'inactive' as const }) },
  { weight: 2, arbitrary: unknownAccount.map((id) => ({ kind: 'unknown' as const, id })) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: -10_000_000, max: 10_000_000 })
      .filter((n) => n % 100 !== 0)
      .map((n) => ({ kind: 'pounds' as const, value: n / 100 })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'string' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'over-limit' as const }) },
);

/** A non-zero whole amount: mostly everyday sums, sometimes within £10 of the largest line allowed. */
const amount = (big: boolean): fc.Arbitrary<number> =>
  fc
    .tuple(
      big
        ? fc.oneof(
            { weight: 20, arbitrary: fc.integer({ min: 1, max: 5_000_000 }) },
            { weight: 1, arbitrary: fc.integer({ min: maxLineAmount - 1000, max: maxLineAmount }) },
          )
        : fc.integer({ min: 1, max: 5_000_000 }),
      fc.boolean(),
    )
    .map(([n, negative]) => (negative ? -n : n));

export interface SpecOptions {
  /** Account codes the clean lines draw from. */
  readonly accounts: readonly string[];
  /** Allow broken lines (zero, unknown or inactive account, pounds, strings, over the limit) and unbalanced sums. */
  readonly flaws: boolean;
  readonly minLines: number;
  readonly maxLines: number;
  readonly dates: fc.Arbitrary<string>;
}

export function txnSpec(o: SpecOptions): fc.Arbitrary<TxnSpec> {
  const line: fc.Arbitrary<LineSpec> = fc.record({
    account: fc.constantFrom(...o.accounts),
    amount: amount(o.flaws),
    mutation: o.flaws ? mutation : fc.constant(null),
  });
  return fc.record({
    lines: fc.array(line, { minLength: o.minLines, maxLength: o.maxLines }),
    balanced: o.flaws ? fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) : fc.constant(true),
    status: fc.constantFrom(undefined, 'posted' as const, 'draft' as const),
    date: o.dates,
    description: fc.constantFrom('Office chairs', 'Rent for November', 'Owner drawings', 'Sale to Jo', 'Correcting journal'),
  });
}

/** The lines of a spec: balanced by making the last line minus the sum of the others, then any flaws applied. */
export function buildLines(spec: TxnSpec, l: Ledger): LineBody[] {
  const lines: LineBody[] = spec.lines.map((s) => {
    const accountId = l.ids.get(s.account);
    assert.ok(accountId, `account ${s.account} in the chart`);
    return { accountId, amount: s.amount };
  });
  const last = lines[lines.length - 1];
  if (spec.balanced && last) {
    last.amount = -lines.slice(0, -1).reduce((sum, x) => sum + (x.amount as number), 0);
  }
  spec.lines.forEach((s, i) => {
    const line = lines[i]!;
    const m = s.mutation;
    if (!m) return;
    switch (m.kind) {
      case 'zero':
        line.amount = 0;
        break;
      case 'inactive':
        line.accountId = l.inactive;
        break;
      case 'unknown':
        line.accountId = m.id;
        break;
      case 'pounds':
        line.amount = m.value;
        break;
      case 'string':
        line.amount = String(line.amount);
        break;
      case 'over-limit':
        line.amount = (line.amount as number) < 0 ? -(maxLineAmount + 1) : maxLineAmount + 1;
        break;
    }
  });
  return lines;
}

export function buildBody(spec: TxnSpec, l: Ledger): TxnBody {
  const body: TxnBody = { date: spec.date, description: spec.description, lines: buildLines(spec, l) };
  if (spec.status !== undefined) body.status = spec.status;
  return body;
}

// ---------------------------------------------------------------------------
// Checks of the whole ledger.

/** Rows in every table of the organisation database. */
export async function rowCounts(l: Ledger): Promise<Record<string, number>> {
  // One query for every table: on PostgreSQL each query is a round trip, and this runs before every step.
  const counts = sql.join(
    l.tables.map((name) => sql`select ${sql.lit(name)} as name, count(*) as n from ${sql.table(name)}`),
    sql` union all `,
  );
  const r = await sql<{ name: string; n: number | string }>`${counts}`.execute(l.db);
  const out: Record<string, number> = {};
  for (const row of r.rows) out[row.name] = Number(row.n);
  return out;
}

/** `before` with the given changes added (tables not named stay as they were). */
export function plus(before: Record<string, number>, change: Partial<Record<'transactions' | 'lines' | 'outbox', number>>): Record<string, number> {
  const out = { ...before };
  for (const [table, n] of Object.entries(change)) out[table] = (out[table] ?? 0) + (n ?? 0);
  return out;
}

/** The net (debit − credit) of each account over posted lines, read from the database. */
export async function postedNets(l: Ledger): Promise<Map<string, number>> {
  const rows = await l.db
    .selectFrom('lines')
    .where('posted', '=', 1)
    .select((eb) => ['account_id', eb.fn.sum<number>('amount').as('net')])
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [r.account_id, Number(r.net)]));
}

/**
 * What must hold of the stored ledger at any moment, as a list of what is
 * wrong (empty when sound): posted lines sum to 0; every transaction has at
 * least 2 lines summing to 0 and a total debit equal to its positive lines;
 * each line's posted flag and date follow its transaction.
 */
export async function storedLedgerProblems(l: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const posted = await sql<{ s: number | null }>`select sum(amount) as s from lines where posted = 1`.execute(l.db);
  const sum = Number(posted.rows[0]?.s ?? 0);
  if (sum !== 0) problems.push(`the posted lines sum to ${sum}, not 0`);

  const bad = await sql<{ id: string; n: number; s: number; debit: number; total_debit: number }>`
    select t.id, count(l.id) as n, coalesce(sum(l.amount), 0) as s,
           coalesce(sum(case when l.amount > 0 then l.amount else 0 end), 0) as debit, t.total_debit
    from transactions t left join lines l on l.transaction_id = t.id
    group by t.id, t.total_debit
    having count(l.id) < 2 or coalesce(sum(l.amount), 0) != 0
        or coalesce(sum(case when l.amount > 0 then l.amount else 0 end), 0) != t.total_debit`.execute(l.db);
  for (const r of bad.rows) problems.push(`transaction ${r.id}: ${r.n} lines summing to ${r.s}, debits ${r.debit}, totalDebit ${r.total_debit}`);

  const drift = await sql<{ id: string; transaction_id: string }>`
    select l.id, l.transaction_id from lines l join transactions t on t.id = l.transaction_id
    where l.posted != (case t.status when 'posted' then 1 else 0 end) or l.date != t.date`.execute(l.db);
  for (const r of drift.rows) problems.push(`line ${r.id} does not follow transaction ${r.transaction_id} (posted flag or date)`);

  // The per-day totals the triggers keep must equal the posted lines, day by day.
  const days = await sql<{ account_id: string; date: string; debit: number; credit: number; line_debit: number | null; line_credit: number | null }>`
    select d.account_id, d.date, d.debit, d.credit, x.debit as line_debit, x.credit as line_credit
    from account_days d left join (
      select account_id, date, sum(case when amount > 0 then amount else 0 end) as debit, sum(case when amount < 0 then -amount else 0 end) as credit
      from lines where posted = 1 group by account_id, date
    ) x on x.account_id = d.account_id and x.date = d.date
    where d.debit != coalesce(x.debit, 0) or d.credit != coalesce(x.credit, 0)`.execute(l.db);
  for (const r of days.rows)
    problems.push(`account_days ${r.account_id} ${r.date}: ${r.debit}/${r.credit}, the lines say ${r.line_debit ?? 0}/${r.line_credit ?? 0}`);
  const missing = await sql<{ n: number }>`
    select count(*) as n from (select distinct account_id, date from lines where posted = 1) x
    where not exists (select 1 from account_days d where d.account_id = x.account_id and d.date = x.date)`.execute(l.db);
  if (Number(missing.rows[0]?.n) > 0) problems.push(`${missing.rows[0]?.n} account-days of posted lines have no account_days row`);
  // The transaction count the triggers keep (migration 0009) must be the count.
  const counts = await sql<{ kept: number; counted: number }>`
    select (select n from row_counts where table_name = 'transactions') as kept, (select count(*) from transactions) as counted`.execute(l.db);
  const { kept, counted } = counts.rows[0]!;
  if (Number(kept) !== Number(counted)) problems.push(`row_counts says ${kept} transactions, there are ${counted}`);
  return problems;
}

export async function checkStoredLedger(l: Ledger): Promise<void> {
  assert.deepEqual(await storedLedgerProblems(l), [], 'the stored ledger is sound');
}

/**
 * The cases of a property share one organisation while it stays sound.
 * Once a case has broken the stored ledger, later cases (and fast-check's
 * shrinking) could not be judged on it, so they get a new organisation.
 */
export async function soundLedger(l: Ledger, renew: () => Promise<Ledger>): Promise<Ledger> {
  return (await storedLedgerProblems(l)).length === 0 ? l : renew();
}

/**
 * The trial balance through HTTP: GET /accounts/{id}/balance for every
 * account. Each net must be `expected` (absent: 0) and debit − credit; the
 * nets sum to 0 and total debits equal total credits.
 */
export async function checkTrialBalance(l: Ledger, expected: ReadonlyMap<string, number>): Promise<void> {
  const replies = await Promise.all(l.accounts.map((id) => l.api.request('GET', `/v1/accounts/${id}/balance`)));
  let net = 0;
  let debit = 0;
  let credit = 0;
  replies.forEach((r, i) => {
    const id = l.accounts[i]!;
    assert.equal(r.status, 200, show(r));
    const b = r.body.data.balance as { debit: number; credit: number; net: number };
    assert.equal(b.net, b.debit - b.credit, `${id}: net is debit − credit`);
    assert.equal(b.net, expected.get(id) ?? 0, `${id}: balance over HTTP`);
    net += b.net;
    debit += b.debit;
    credit += b.credit;
  });
  assert.equal(net, 0, 'the trial balance nets to 0');
  assert.equal(debit, credit, 'total debits equal total credits');
  // The reports agree: the balance sheet's checksum holds and the trial balance report balances.
  for (const asOf of ['2025-09-30', '2030-12-31']) {
    const bs = await l.api.request('GET', `/v1/reports/balance-sheet?asOf=${asOf}`);
    assert.equal(bs.status, 200, show(bs));
    const d = bs.body.data as { assets: { total: number }; liabilities: { total: number }; equity: { total: number }; checksum: boolean };
    assert.equal(d.checksum, true, `balance sheet checksum at ${asOf}`);
    assert.equal(d.assets.total, d.liabilities.total + d.equity.total, `assets = liabilities + equity at ${asOf}`);
  }
  const tb = await l.api.request('GET', '/v1/reports/trial-balance?asOf=2030-12-31');
  assert.equal(tb.body.data.balanced, true, 'the trial balance report balances');
}
