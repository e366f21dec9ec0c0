/**
 * hledger and beancount, read from the differential tests (not a test file
 * itself). Both are required: without them the tests fail, never skip
 * (apt-get install -y hledger beancount).
 */
import { spawnSync } from 'node:child_process';
import type { Test } from 'tap';

/** One failed assertion per missing tool, so the test fails and says which. */
export function requireTools(t: Test): boolean {
  let all = true;
  for (const tool of ['hledger', 'bean-check', 'bean-query']) {
    const ok = spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0;
    t.ok(ok, `${tool} is installed (apt-get install -y hledger beancount)`);
    all &&= ok;
  }
  return all;
}

/** Pence from hledger's amounts: £1,234.56, -£0.07, £-3.00. */
export function pence(text: string): number {
  const m = /^(-)?£(-)?([\d,]+)\.(\d\d)$/.exec(text.trim());
  if (!m) throw new Error(`not an amount: ${text}`);
  const value = Number((m[3] ?? '').replaceAll(',', '')) * 100 + Number(m[4]);
  return m[1] || m[2] ? -value : value;
}

export function hledgerCsv(file: string, args: readonly string[]): string[][] {
  const r = spawnSync('hledger', ['-f', file, ...args, '-O', 'csv'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hledger ${args.join(' ')}: ${r.stderr}`);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? ''));
}

/** hledger check: null when the file reads without error, else what hledger said. */
export function hledgerCheck(file: string): string | null {
  const r = spawnSync('hledger', ['-f', file, 'check'], { encoding: 'utf8' });
  return r.status === 0 ? null : r.stderr;
}

/** The code an account name starts its second component with: "assets:1100 Accounts Receivable", "Assets:1100-Accounts-Receivable". */
export const codeOf = (account: string): string => /^[^:]+:(\d+|[^-\s]+)/.exec(account.trim())?.[1] ?? account;

/** Every account's balance (debit positive) on a date, by code, from hledger bal. */
export function hledgerBalances(file: string, args: readonly string[]): Record<string, number> {
  return Object.fromEntries(
    hledgerCsv(file, ['bal', '--flat', '-N', ...args])
      .slice(1)
      .map(([account, amount]) => [codeOf(account ?? ''), pence(amount ?? '')]),
  );
}

/** The first day of the financial year holding a day, in books whose years start 04-01 (a company's default). */
export const yearStartOf = (day: string): string => `${day.slice(5) >= '04-01' ? day.slice(0, 4) : Number(day.slice(0, 4)) - 1}-04-01`;

/**
 * Running balances (hledger's, beancount's) as a trial balance prints them: the
 * income (4xxx) and expense (5xxx) accounts of the provisioned chart from the
 * financial year's start only, the balances they had before it moved into
 * 3100 Retained Earnings; zero balances left out.
 */
export function yearToDate(atAsOf: Record<string, number>, beforeYear: Record<string, number>): Record<string, number> {
  const out = { ...atAsOf };
  let earlier = 0;
  for (const [code, balance] of Object.entries(beforeYear)) {
    if (!/^[45]/.test(code)) continue;
    earlier += balance;
    out[code] = (out[code] ?? 0) - balance;
  }
  out['3100'] = (out['3100'] ?? 0) + earlier;
  return Object.fromEntries(Object.entries(out).filter(([, balance]) => balance !== 0));
}

/** The total rows of hledger's is, bs or bse, in section order, then its Net row. */
export const totalsAndNet = (rows: readonly string[][]): number[] => [
  ...rows.filter((r) => r[0] === 'total').map((r) => pence(r[1] ?? '')),
  pence(rows.find((r) => r[0] === 'Net:')?.[1] ?? ''),
];

export function beanCheck(file: string): string | null {
  const r = spawnSync('bean-check', [file], { encoding: 'utf8' });
  return r.status === 0 ? null : `${r.stdout}${r.stderr}`;
}

/** A bean-query of two columns (a key and a sum), as pence by key; keys with a zero sum left out. */
export function beanQuery(file: string, query: string): Record<string, number> {
  const r = spawnSync('bean-query', ['-f', 'csv', file, query], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bean-query ${query}: ${r.stderr}`);
  return Object.fromEntries(
    r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
      .map(([key, total]): [string, number] => [(key ?? '').trim(), Math.round(Number((total ?? '').trim()) * 100)])
      .filter(([, total]) => total !== 0),
  );
}
