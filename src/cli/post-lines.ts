/**
 * The lines of `acct post`: CODE=AMOUNT in pounds, and the VAT shorthand
 * CODE=AMOUNT@RATE, @RATEex or @RATEinc (RATE a whole percentage 0-100):
 * ex (the default) reads AMOUNT as the net and adds RATE% on top; inc reads
 * it as the gross and takes the VAT out of it (nearest penny, halves up, as
 * lineVat). A revenue account makes a sale, an expense or asset account a
 * purchase (not the bank, receivables or another control or system
 * account, as on a bill). The line becomes what transactions.create needs:
 * - standard scheme: the net on the account, marked exclusive with its
 *   rate and VAT, and the VAT on 2200 (sales) or 2201 (purchases), so the
 *   return counts it (boxes 1 and 6, or 4 and 7);
 * - flat rate scheme: sales as under the standard scheme (the customer is
 *   charged VAT at the normal rate; filing works out the flat-rate VAT);
 *   a purchase is posted gross, its VAT inside the cost (marked inclusive,
 *   not reclaimed), but for a capital purchase (an asset line of £2,000 or
 *   more including VAT), split as under the standard scheme and reclaimed;
 * - not registered: a purchase is posted gross with no VAT facts (the
 *   supplier's VAT is part of the cost, as on a bill); a sale is refused,
 *   since a business not registered charges no VAT.
 * VAT lines follow all the lines typed. A refusal names the argument as
 * typed: the 2nd CODE=AMOUNT, not lines[1].
 */
import type { Kysely } from 'kysely';
import { AppError } from '../engine/errors.js';
import { parsePounds } from '../engine/money.js';
import { lineVat } from '../engine/ledger/line-vat.js';
import { findAccountByCode, type AccountRow } from '../engine/ledger/accounts.js';
import { capitalPurchaseThreshold } from '../engine/ledger/vat-entries.js';
import { loadOrganisation, schemeOn } from '../engine/organisation/organisation.js';
import type { OrgDb, OrganisationTable } from '../store/tables.js';

export interface PostLine {
  readonly accountId: string;
  readonly amount: number;
  readonly vatRate?: number;
  readonly vatTreatment?: 'inclusive' | 'exclusive';
  readonly vatAmount?: number;
}

interface Shorthand {
  readonly rate: number;
  readonly inclusive: boolean;
}

const entry = /^([^=\s]+)=([^@]+)(?:@(.*))?$/;
const vatPart = /^(\d{1,3})(inc|ex)?$/;

/** The i-th (from 0) CODE=AMOUNT argument, as a refusal names it ("2nd CODE=AMOUNT"); the field is "CODE=AMOUNT 2". */
const ordinal = (n: number): string => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
export const nth = (i: number): string => `${ordinal(i + 1)} CODE=AMOUNT`;
export const postArgField = (i: number): string => `CODE=AMOUNT ${i + 1}`;

const usage = 'CODE=AMOUNT or CODE=AMOUNT@RATE (RATE% on top; @RATEinc: RATE% inside), such as 5100=120.00 or 5100=144.00@20inc';

function shorthandOf(text: string, part: string, i: number): Shorthand {
  const m = vatPart.exec(part);
  const rate = m ? Number(m[1]) : NaN;
  if (!m || rate > 100) {
    throw new AppError(
      'validation_error',
      `${nth(i)} ${text}: the VAT shorthand is @RATE, @RATEex or @RATEinc with RATE a whole percentage from 0 to 100 (such as @20, @5inc, @0), not @${part}`,
      postArgField(i),
    );
  }
  return { rate, inclusive: m[2] === 'inc' };
}

/** The amount of the i-th argument in pence; a refusal says which argument, with the argument's number as its field. */
function amountOf(pounds: string, text: string, i: number): number {
  try {
    return parsePounds(pounds, `${nth(i)} ${text}: the amount`);
  } catch (e) {
    throw e instanceof AppError ? new AppError(e.code, e.message, postArgField(i)) : e;
  }
}

/** One line of the books, or a VAT line split off it. */
function split(
  scheme: OrganisationTable['vat_scheme'],
  account: AccountRow,
  amount: number,
  vat: Shorthand,
  text: string,
  i: number,
): { line: PostLine; vat: { code: '2200' | '2201'; amount: number } | null } {
  const direction = account.account_type === 'revenue' ? 'sale' : account.account_type === 'expense' || account.account_type === 'asset' ? 'purchase' : null;
  // As on a bill: the bank, receivables and the like are where money goes, not what was bought.
  if (direction === null || account.control_type !== null || (account.is_system === 1 && account.account_type === 'asset')) {
    throw new AppError(
      'validation_error',
      `${nth(i)} ${text}: VAT goes on a sale (a revenue account) or a purchase (an expense or asset account, not a control or system account), not on ${account.code} ${account.name}`,
      postArgField(i),
    );
  }
  const sign = Math.sign(amount);
  const typed = Math.abs(amount);
  const vatAmount = lineVat(typed, vat.rate, vat.inclusive ? 'inclusive' : 'exclusive') ?? 0;
  const net = vat.inclusive ? typed - vatAmount : typed;
  const gross = net + vatAmount;
  if (scheme === 'not_registered') {
    if (direction === 'sale') {
      throw new AppError(
        'validation_error',
        `${nth(i)} ${text}: the organisation is not registered for VAT, so its sales carry no VAT; post the amount without @${vat.rate}${vat.inclusive ? 'inc' : ''}`,
        postArgField(i),
      );
    }
    return { line: { accountId: account.id, amount: sign * gross }, vat: null };
  }
  const capital = account.account_type === 'asset' && gross >= capitalPurchaseThreshold;
  if (scheme === 'flat_rate' && direction === 'purchase' && !capital) {
    const line = { accountId: account.id, amount: sign * gross, vatRate: vat.rate, vatTreatment: 'inclusive', vatAmount } as const;
    return { line, vat: null };
  }
  const line = { accountId: account.id, amount: sign * net, vatRate: vat.rate, vatTreatment: 'exclusive', vatAmount } as const;
  return { line, vat: vatAmount === 0 ? null : { code: direction === 'sale' ? '2200' : '2201', amount: sign * vatAmount } };
}

/** The lines for transactions.create from the arguments of acct post, under the VAT scheme in force on `date`. */
export async function postLines(db: Kysely<OrgDb>, args: readonly string[], date: string): Promise<PostLine[]> {
  const lines: PostLine[] = [];
  const vatLines: PostLine[] = [];
  let scheme: OrganisationTable['vat_scheme'] | undefined;
  const vatAccounts = new Map<string, string>();
  const vatAccountId = async (code: string, i: number): Promise<string> => {
    const id =
      vatAccounts.get(code) ??
      (await findAccountByCode(db, code).then(
        (a) => a.id,
        () => {
          throw new AppError('unprocessable_entity', `${nth(i)} ${args[i]}: the chart has no VAT account ${code} to take its VAT`, postArgField(i));
        },
      ));
    vatAccounts.set(code, id);
    return id;
  };
  for (const [i, text] of args.entries()) {
    const m = entry.exec(text);
    if (!m) throw new AppError('validation_error', `${nth(i)}: expected ${usage}, not ${text}`, postArgField(i));
    const [, code = '', pounds = '', vatText] = m;
    const vat = vatText === undefined ? null : shorthandOf(text, vatText, i);
    const account = await findAccountByCode(db, code).catch(() => {
      throw new AppError('validation_error', `${nth(i)} ${text}: no account with code ${code}`, postArgField(i));
    });
    const amount = amountOf(pounds, text, i);
    if (vat === null) {
      lines.push({ accountId: account.id, amount });
      continue;
    }
    scheme ??= (await schemeOn(db, await loadOrganisation(db), date)).vat_scheme;
    const made = split(scheme, account, amount, vat, text, i);
    lines.push(made.line);
    if (made.vat !== null) vatLines.push({ accountId: await vatAccountId(made.vat.code, i), amount: made.vat.amount });
  }
  return [...lines, ...vatLines];
}
