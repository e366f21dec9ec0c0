/**
 * Helpers of the company tests (not a test file itself): a limited company
 * not registered for VAT made by `acct init`, driven through the commander
 * program in-process, with amounts typed in pounds as a user would.
 */
import type { Test } from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';

/** A limited company to drive: acct and acct --json, postings, directors, minutes, declarations and the profit check. */
export async function company(t: Test) {
  const dir = t.testdir();
  await init(t, dir, ['--name', 'Acme Widgets Ltd', '--business-type', 'limited_company', '--vat-scheme', 'not_registered']);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const json = async (...args: string[]) => {
    const r = await runCliInProcessJson(['--data', dir, '--json', ...args]);
    t.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.data as Record<string, unknown>;
  };
  const post = async (...args: string[]) => t.equal((await acct('post', ...args)).status, 0, args.join(' '));
  const director = async (name: string, shares: number) =>
    (await json('directors', 'add', '--full-name', name, '--shares-held', String(shares), '--appointed-date', '2025-04-01')).id as string;
  /** Board minutes: the amount in pounds, as typed. */
  const minutes = (attendee: string, date: string, fye: string, pounds: string) =>
    acct('--json', 'dividends', 'minutes', '--attendees', attendee, '--date', date, '--financial-year-end', fye, '--total-dividend-pence', pounds);
  const declare = (director: string, bm: string, pounds: string, date: string) =>
    acct('--json', 'dividends', 'declare', '--director-id', director, '--board-minutes-id', bm, '--amount-pence', pounds, '--date', date);
  const check = (fye: string) => json('dividends', 'profit-check', '--financial-year-end', fye);
  const id = (r: { stdout: string }) => (JSON.parse(r.stdout) as { id: string }).id;
  return { acct, json, post, director, minutes, declare, check, id };
}
