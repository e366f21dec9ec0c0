/**
 * Properties of statement reading over generated statements: whatever the
 * layout (signed or debit/credit), order, line endings, BOM, quoting and
 * thousands separators, every row comes back with its date and exact pence,
 * rows are conserved, and the balance proof passes; one wrong balance makes
 * it fail at that row. The CSV is written here with its own pounds
 * formatting, apart from the code under test.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { readStatement } from '../../src/engine/banking/statements/read-statement.js';

const seed = 20240315;
const numRuns = 200;

interface Row {
  readonly date: string;
  readonly description: string;
  readonly amount: number;
}

interface Statement {
  readonly rows: readonly Row[];
  readonly opening: number;
  readonly dual: boolean;
  readonly newestFirst: boolean;
  readonly crlf: boolean;
  readonly bom: boolean;
  readonly thousands: boolean;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** 123456 → "1234.56" (or "1,234.56"), -5 → "-0.05": pounds as a bank prints them. */
function pounds(pence: number, thousands: boolean): string {
  const abs = Math.abs(pence);
  const whole = String(Math.floor(abs / 100));
  const grouped = thousands ? whole.replace(/\B(?=(\d{3})+$)/g, ',') : whole;
  return `${pence < 0 ? '-' : ''}${grouped}.${pad(abs % 100)}`;
}

const quote = (cell: string): string => `"${cell.replaceAll('"', '""')}"`;

/** Days after 1 Jan 2024, as DD/MM/YYYY and YYYY-MM-DD. */
function day(offset: number): { uk: string; iso: string } {
  const d = new Date(Date.UTC(2024, 0, 1 + offset));
  return { uk: `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`, iso: d.toISOString().slice(0, 10) };
}

const rowArb = fc.record({
  gap: fc.integer({ min: 0, max: 3 }),
  description: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,"&.-]{0,30}$/),
  amount: fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }),
});

const statementArb = fc
  .record({
    rows: fc.array(rowArb, { minLength: 2, maxLength: 25 }),
    opening: fc.integer({ min: -100_000_000, max: 100_000_000 }),
    dual: fc.boolean(),
    newestFirst: fc.boolean(),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    thousands: fc.boolean(),
  })
  .map(({ rows, ...rest }): Statement => {
    // Dates run forward, the last strictly after the first, so the order of the file can be told from them.
    let offset = 0;
    const dated = rows.map((r, i) => {
      offset += i === rows.length - 1 ? r.gap + 1 : r.gap;
      return { date: day(offset).iso, description: r.description, amount: r.amount };
    });
    return { rows: dated, ...rest };
  });

/** The CSV of a statement, with the balance after each row; `wrong` adds pence to one row's printed balance. */
function write(s: Statement, wrong?: { row: number; by: number }): string {
  let balance = s.opening;
  const lines = s.rows.map((row, i) => {
    balance += row.amount;
    const stated = balance + (wrong?.row === i ? wrong.by : 0);
    const date = day(Math.round((Date.parse(row.date) - Date.UTC(2024, 0, 1)) / 86_400_000)).uk;
    const money = (p: number): string => (s.thousands ? quote(pounds(p, true)) : pounds(p, false));
    const amounts = s.dual ? [row.amount < 0 ? money(-row.amount) : '', row.amount >= 0 ? money(row.amount) : ''] : [money(row.amount)];
    return [date, quote(row.description), ...amounts, money(stated)].join(',');
  });
  const header = s.dual ? 'Date,Description,Paid out,Paid in,Balance' : 'Date,Description,Amount,Balance';
  const body = [header, ...(s.newestFirst ? lines.reverse() : lines)].join(s.crlf ? '\r\n' : '\n') + (s.crlf ? '\r\n' : '\n');
  return (s.bom ? '\uFEFF' : '') + body;
}

const inFileOrder = <T>(s: Statement, rows: readonly T[]): T[] => (s.newestFirst ? [...rows].reverse() : [...rows]);

t.test('every generated statement reads back exactly, conserved, its balances proven', async (t) => {
  fc.assert(
    fc.property(statementArb, (s) => {
      const r = readStatement(write(s));
      assert.equal(r.totalRows, s.rows.length);
      assert.equal(r.rows.length + r.rejected.length, r.totalRows);
      assert.deepEqual(r.rejected, []);
      assert.equal(r.schema.amountModel, s.dual ? 'DUAL_COL_DR_CR' : 'SIGNED_SINGLE');
      assert.equal(r.rowOrder, s.newestFirst ? 'NEWEST_FIRST' : 'OLDEST_FIRST');
      assert.deepEqual(
        r.rows.map((row) => [row.date, row.description, row.amount]),
        inFileOrder(s, s.rows).map((row) => [row.date, row.description.replace(/\s+/g, ' ').trim(), row.amount]),
      );
      const total = s.rows.reduce((sum, row) => sum + row.amount, 0);
      assert.deepEqual(r.balanceProof, {
        basis: 'RUNNING_BALANCE',
        openingBalance: s.opening,
        closingBalance: s.opening + total,
        delta: 0,
        status: 'PASS',
        stepwisePass: true,
        firstBreak: null,
      });
    }),
    { seed, numRuns },
  );
  t.pass(`${numRuns} statements read back`);
});

t.test('one wrong balance fails the proof at its row (or, on the oldest row, at the next)', async (t) => {
  const cases = statementArb.chain((s) =>
    fc.record({
      s: fc.constant(s),
      row: fc.integer({ min: 0, max: s.rows.length - 1 }),
      by: fc.integer({ min: -100_000, max: 100_000 }).filter((n) => n !== 0),
    }),
  );
  fc.assert(
    fc.property(cases, ({ s, row, by }) => {
      const r = readStatement(write(s, { row, by }));
      assert.equal(r.balanceProof.status, 'FAIL');
      assert.equal(r.balanceProof.stepwisePass, false);
      // rowIndex counts rows as the file lists them; `row` counts them in date order.
      const fileIndex = (dateIndex: number): number => (s.newestFirst ? s.rows.length - dateIndex : dateIndex + 1);
      // The oldest row's balance is where the opening balance comes from, so the row after it is the first to disagree.
      const breaksAt = row === 0 ? 1 : row;
      assert.equal(r.balanceProof.firstBreak?.rowIndex, fileIndex(breaksAt));
      const after = s.opening + s.rows.slice(0, breaksAt + 1).reduce((sum, x) => sum + x.amount, 0);
      assert.deepEqual(
        r.balanceProof.firstBreak,
        row === 0 ? { rowIndex: fileIndex(1), expected: after + by, found: after } : { rowIndex: fileIndex(row), expected: after, found: after + by },
      );
      // The stated closing balance against the opening one: a wrong closing balance is off by `by`, a wrong opening one
      // (taken from the oldest row) the other way, and a wrong balance in between cancels out.
      assert.equal(r.balanceProof.delta, row === s.rows.length - 1 ? by : row === 0 ? -by : 0);
    }),
    { seed, numRuns },
  );
  t.pass(`${numRuns} statements with one wrong balance`);
});
