/**
 * Each trial balance row mapped to an account of the organisation's chart,
 * in tiers, the first that answers winning: the user's own choice (manual),
 * the same name (exact), the same code with names that agree (code), the
 * dictionary of the names Xero, FreeAgent and QuickBooks use (dictionary), a
 * near name (fuzzy), else unmapped. Then clearing mode sends what landed on
 * Accounts Receivable to 1198 and on Accounts Payable to 2198, so that the
 * outstanding invoices and bills imported later rebuild 1100 and 2100 against
 * the clearing accounts document by document. Direct mode never matches a row
 * to 1198 or 2198 by itself: nothing would clear it there.
 */
import { similarity } from '../../tabular/similarity.js';
import { accountDictionary, accountKey, dictionaryCode } from './account-dictionary.js';
import { accountNameOf } from './read-trial-balance.js';
import type { TrialBalanceRow } from './read-trial-balance.js';

export interface ChartAccount {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly accountType: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';
  readonly isActive: boolean;
}

export type MappingMethod = 'exact' | 'code' | 'dictionary' | 'fuzzy' | 'clearing' | 'manual' | 'unmapped';

export interface Mapping {
  readonly sourceLabel: string;
  readonly sourceCode: string | null;
  readonly target: ChartAccount | null;
  readonly method: MappingMethod;
  /** A whole percentage, 0 when unmapped. */
  readonly confidence: number;
  readonly reason: string;
}

export type OpeningBalanceMode = 'clearing' | 'direct';

export interface MapOptions {
  readonly mode: OpeningBalanceMode;
  /** sourceLabel → account id, from the user's PATCH …/map. */
  readonly manual?: ReadonlyMap<string, string>;
}

/** The least similarity a fuzzy match needs. */
export const fuzzyThreshold = 80;

export const clearingRedirects: Readonly<Record<string, string>> = { '1100': '1198', '2100': '2198' };

const confidence = { manual: 100, exact: 100, code: 95, dictionary: 90 } as const;

// Words too common in account names to say two names are about the same thing.
const commonWords = new Set(['and', 'of', 'the', 'a', 'an', 'on', 'for', 'to', 'in', 'account', 'accounts', 'less', 'other', 'control', 'total']);

const quote = (v: string): string => JSON.stringify(v);
const describe = (account: ChartAccount): string => `${account.code} ${account.name}`;

interface Found {
  readonly target: ChartAccount;
  readonly method: Exclude<MappingMethod, 'clearing' | 'unmapped'>;
  readonly confidence: number;
  readonly reason: string;
}

class Chart {
  readonly active: readonly ChartAccount[];
  private readonly byCode = new Map<string, ChartAccount>();
  private readonly byKey = new Map<string, ChartAccount>();

  constructor(accounts: readonly ChartAccount[]) {
    this.active = accounts.filter((a) => a.isActive);
    for (const account of this.active) {
      if (!this.byCode.has(account.code)) this.byCode.set(account.code, account);
      const key = accountKey(account.name);
      if (!this.byKey.has(key)) this.byKey.set(key, account);
    }
  }

  code(code: string): ChartAccount | undefined {
    return this.byCode.get(code);
  }

  named(name: string): ChartAccount | undefined {
    return this.byKey.get(accountKey(name));
  }

  id(id: string): ChartAccount | undefined {
    return this.active.find((a) => a.id === id);
  }
}

const significantWords = (name: string): string[] =>
  accountKey(name)
    .split(' ')
    .filter((w) => w.length >= 3 && !commonWords.has(w));

/**
 * Whether a source name may be the account that shares its code. Xero's 200
 * is Sales and FreeAgent's 001 Sales; a source's code only says something
 * when the names agree too: the dictionary, when it knows the name, must
 * send it to this very code (so QuickBooks' "2200 VAT Control" is not our
 * 2200 VAT Output); otherwise the names must be alike or share a word.
 */
function namesAgree(name: string, account: ChartAccount): boolean {
  const known = dictionaryCode(name);
  if (known !== null) return known === account.code;
  if (similarity(accountKey(name), accountKey(account.name)) >= 60) return true;
  const words = new Set(significantWords(account.name));
  return significantWords(name).some((w) => words.has(w));
}

function fuzzy(name: string, chart: Chart): Found | null {
  const key = accountKey(name);
  // Chart names first, so that a tie goes to the organisation's own name.
  const candidates: { account: ChartAccount | undefined; key: string; like: string }[] = [
    ...chart.active.map((account) => ({ account, key: accountKey(account.name), like: account.name })),
    ...[...accountDictionary].map(([candidate, code]) => ({ account: chart.code(code), key: candidate, like: candidate })),
  ];
  let best: { account: ChartAccount; score: number; like: string } | null = null;
  for (const { account, key: candidate, like } of candidates) {
    if (account === undefined) continue;
    const score = similarity(key, candidate);
    if (score >= fuzzyThreshold && (best === null || score > best.score)) best = { account, score, like };
  }
  if (best === null) return null;
  const { account, score, like } = best;
  return { target: account, method: 'fuzzy', confidence: score, reason: `${quote(name)} is ${score}% like ${quote(like)}` };
}

function find(row: TrialBalanceRow, chart: Chart, manual: ReadonlyMap<string, string> | undefined): Found | null {
  const chosen = manual?.get(row.sourceLabel);
  const manualTarget = chosen === undefined ? undefined : chart.id(chosen);
  if (manualTarget) return { target: manualTarget, method: 'manual', confidence: confidence.manual, reason: `mapped by hand to ${describe(manualTarget)}` };
  const name = accountNameOf(row);
  const exact = chart.named(name) ?? chart.named(row.sourceLabel);
  if (exact) return { target: exact, method: 'exact', confidence: confidence.exact, reason: `the name is the name of ${describe(exact)}` };
  const sameCode = row.sourceCode === null ? undefined : chart.code(row.sourceCode);
  if (sameCode && namesAgree(name, sameCode)) {
    return {
      target: sameCode,
      method: 'code',
      confidence: confidence.code,
      reason: `the code ${row.sourceCode ?? ''} is the code of ${describe(sameCode)} and the names agree`,
    };
  }
  const known = dictionaryCode(name);
  const listed = known === null ? undefined : chart.code(known);
  if (listed)
    return { target: listed, method: 'dictionary', confidence: confidence.dictionary, reason: `${quote(name)} is the usual name for ${describe(listed)}` };
  return fuzzy(name, chart);
}

/**
 * Why an automatic match to a migration clearing account cannot stand in
 * direct mode, or null: only invoice and bill imports clear 1198 and 2198,
 * and they need clearing mode, so a balance left there would stay for good
 * (a hand mapping there is refused when it is made, opening-balances.ts).
 */
function strandedOnClearing(found: Found, chart: Chart, mode: OpeningBalanceMode): string | null {
  if (mode !== 'direct' || found.method === 'manual') return null;
  const control = Object.entries(clearingRedirects).find(([, clearing]) => clearing === found.target.code)?.[0];
  if (control === undefined) return null;
  const instead = chart.code(control);
  return (
    `found as ${describe(found.target)} (${found.method}: ${found.reason}), but in direct mode nothing would ever clear ${found.target.code}: ` +
    `only invoice and bill imports clear it, and they need clearing mode; choose an account${instead ? ` (${describe(instead)}, say)` : ''}, or upload the trial balance again with clearingMode clearing`
  );
}

function mapOne(row: TrialBalanceRow, chart: Chart, options: MapOptions): Mapping {
  const source = { sourceLabel: row.sourceLabel, sourceCode: row.sourceCode };
  const found = find(row, chart, options.manual);
  if (found === null) {
    return { ...source, target: null, method: 'unmapped', confidence: 0, reason: `no account of the chart matches ${quote(row.sourceLabel)}: choose one` };
  }
  const stranded = strandedOnClearing(found, chart, options.mode);
  if (stranded !== null) return { ...source, target: null, method: 'unmapped', confidence: 0, reason: stranded };
  const redirect = options.mode === 'clearing' ? clearingRedirects[found.target.code] : undefined;
  if (redirect === undefined) return { ...source, ...found };
  const clearing = chart.code(redirect);
  if (!clearing) {
    return {
      ...source,
      target: null,
      method: 'unmapped',
      confidence: 0,
      reason: `clearing mode needs account ${redirect} for ${describe(found.target)}, and the chart has no active ${redirect}`,
    };
  }
  return {
    ...source,
    target: clearing,
    method: 'clearing',
    confidence: found.confidence,
    reason: `found as ${describe(found.target)} (${found.method}: ${found.reason}); clearing mode sends it to ${describe(clearing)}`,
  };
}

/** One mapping per row, in the rows' order. Inactive accounts are never targets; a manual choice of one is passed over. */
export function mapAccounts(rows: readonly TrialBalanceRow[], chart: readonly ChartAccount[], options: MapOptions): Mapping[] {
  const accounts = new Chart(chart);
  return rows.map((row) => mapOne(row, accounts, options));
}
