/**
 * Dividends: the profit check, board minutes that resolve a total, and
 * each shareholder's dividend declared (3200 Dividends debited, 2500
 * Dividends Payable credited; voucher DIV-0001 onward), paid (2500 debited,
 * the bank credited; or set against the director's loan account at once)
 * and voided (every journal of the dividend reversed; twice is refused).
 *
 * The profit check for a financial year end F, on a day D (a meeting's or
 * a declaration's; the check endpoint reads the books as they stand):
 * profit is that of every posted revenue and expense line plus 3100
 * Retained Earnings, taken at the least of three points: to F (the
 * accounts the dividend is judged by), to D (the year so far on the day)
 * and over every line posted (a later loss counts). Every dividend not
 * voided comes off it, whatever year it is charged to and whenever it is
 * dated, so the same profit is never distributed twice: retained earnings
 * are that profit less the dividends of other years, and available is
 * that less the dividends declared for F. A declaration beyond it is 422
 * insufficient_profit.
 *
 * Under one set of minutes the holders of a class are paid one rate per
 * share (Model Articles art. 30(4)): see sameRate.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { newId } from '../ids.js';
import { found } from '../lookup.js';
import { sterling } from '../money.js';
import { day, idOut, instant } from '../output.js';
import { pence } from '../schema.js';
import { formatPerShare } from '../../pdf/format.js';
import { createTransaction, refuseAfterToday, type Posting } from '../ledger/posting.js';
import { assertDateOpen } from '../ledger/periods.js';
import { primaryBankAccount } from '../banking/bank-accounts.js';
import { findDirector, requireCompany, yearEndingOn } from './directors.js';
import { addDlaTransaction, chartAccountId, reverseDividendMovements } from './dla.js';
import type { BoardMinutesTable, DirectorsTable, DividendsTable, OrgDb } from '../../store/tables.js';

export const profitCheckSchema = z.strictObject({
  financialYearEnd: day(),
  retainedEarningsPence: pence(),
  previouslyDeclaredPence: pence(),
  availableProfitPence: pence(),
  canDeclareDividend: z.boolean(),
});
export type ProfitCheck = z.output<typeof profitCheckSchema>;

/** Dividends not voided: charged to the financial year ending `fye` (same), and to any other (other); declared by `knownOn` when given. */
async function declaredTotals(db: Kysely<OrgDb>, fye: string, knownOn?: string): Promise<{ same: number; other: number }> {
  const q = db
    .selectFrom('dividends')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('financial_year_end', '=', fye).then(eb.ref('amount')).else(0).end()), eb.val(0)).as('same'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('financial_year_end', '!=', fye).then(eb.ref('amount')).else(0).end()), eb.val(0)).as('other'),
    ])
    .where((eb) => {
      if (knownOn === undefined) return eb('status', '!=', 'void');
      // A void counts from the day of its reversing journals (the dividend's own journals other than the declaration and payment), else the day it was made.
      const reversals = () =>
        eb
          .selectFrom('transactions as t')
          .select('t.id')
          .where('t.source_type', '=', 'dividend')
          .whereRef('t.source_id', '=', 'dividends.id')
          .where((e) => e.or([e('dividends.declare_transaction_id', 'is', null), e('t.id', '!=', e.ref('dividends.declare_transaction_id'))]))
          .where((e) => e.or([e('dividends.pay_transaction_id', 'is', null), e('t.id', '!=', e.ref('dividends.pay_transaction_id'))]));
      return eb.and([
        eb('date_declared', '<=', knownOn),
        eb.or([
          eb('status', '!=', 'void'),
          eb.exists(reversals().where('t.date', '>', knownOn)),
          eb.and([eb.not(eb.exists(reversals())), eb('voided_at', '>', `${knownOn}T23:59:59.999Z`)]),
        ]),
      ]);
    });
  const row = await q.executeTakeFirstOrThrow();
  return { same: Number(row.same), other: Number(row.other) };
}

/**
 * The profit of every posted revenue and expense line, with 3100 Retained
 * Earnings: to the year end, to the day, and over every line (dated by
 * `knownOn` when given), in one pass.
 */
async function profits(db: Kysely<OrgDb>, fye: string, on: string, knownOn?: string): Promise<{ toYearEnd: number; toDay: number; all: number }> {
  let q = db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .select((eb) => {
      const to = (day: string) =>
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('lines.date', '<=', day).then(eb.ref('lines.amount')).else(0).end()), eb.val(0));
      return [to(fye).as('toYearEnd'), to(on).as('toDay'), eb.fn.coalesce(eb.fn.sum<number>('lines.amount'), eb.val(0)).as('all')];
    })
    .where('lines.posted', '=', 1)
    .where((eb) => eb.or([eb('accounts.account_type', 'in', ['revenue', 'expense']), eb('accounts.code', '=', '3100')]));
  if (knownOn !== undefined) q = q.where('lines.date', '<=', knownOn);
  const row = await q.executeTakeFirstOrThrow();
  // Credits are negative: profit and retained earnings are what the credits exceed the debits by.
  return { toYearEnd: -Number(row.toYearEnd), toDay: -Number(row.toDay), all: -Number(row.all) };
}

/**
 * The profit available for the financial year ending `fye`, on the day `on`
 * (a meeting or declaration) or, without it, as the books stand; with
 * `knownOn` (a year-end pack's preparedOn), from the lines and dividends
 * dated by that day only.
 */
export async function profitCheck(db: Kysely<OrgDb>, fye: string, on?: string, knownOn?: string): Promise<ProfitCheck> {
  await requireCompany(db);
  const profit = await profits(db, fye, on ?? fye, knownOn);
  const dividends = await declaredTotals(db, fye, knownOn);
  const retained = Math.min(profit.toYearEnd, profit.toDay, profit.all) - dividends.other;
  const declared = dividends.same;
  const available = retained - declared;
  return {
    financialYearEnd: fye,
    retainedEarningsPence: retained,
    previouslyDeclaredPence: declared,
    availableProfitPence: available,
    canDeclareDividend: available > 0,
  };
}

/**
 * Retained earnings at the financial year end `fye` as the balance sheet of
 * that day holds them: the profit of every posted revenue and expense line
 * to it, with 3100, less every dividend declared by then and not voided by
 * then (3200 Dividends). Unlike profitCheck, nothing after the year end
 * counts: not a later dividend, void or loss.
 */
export async function retainedAtYearEnd(
  db: Kysely<OrgDb>,
  fye: string,
): Promise<{ profitPence: number; dividendsPence: number; retainedEarningsPence: number }> {
  const [profit, dividends] = await Promise.all([profits(db, fye, fye, fye), declaredTotals(db, fye, fye)]);
  const dividendsPence = dividends.same + dividends.other;
  return { profitPence: profit.toYearEnd, dividendsPence, retainedEarningsPence: profit.toYearEnd - dividendsPence };
}

export const minutesSchema = z.strictObject({
  id: idOut('bm'),
  resolutionRef: z.string(),
  date: day(),
  financialYearEnd: day(),
  attendees: z.array(z.strictObject({ id: z.string(), fullName: z.string() })),
  chairId: z.string(),
  retainedProfitPence: pence(),
  totalDividendPence: pence(),
  declaredPence: pence().describe('declared against these minutes, voided dividends left out'),
  remainingAllocationPence: pence(),
  notes: z.string().nullable(),
  status: z.literal('approved'),
  createdAt: instant(),
});
export type Minutes = z.output<typeof minutesSchema>;

export async function minutesView(db: Kysely<OrgDb>, row: BoardMinutesTable): Promise<Minutes> {
  const ids = JSON.parse(row.attendees_json) as string[];
  const names = new Map((await db.selectFrom('directors').select(['id', 'full_name']).where('id', 'in', ids).execute()).map((d) => [d.id, d.full_name]));
  const declared = await db
    .selectFrom('dividends')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
    .where('board_minutes_id', '=', row.id)
    .where('status', '!=', 'void')
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    resolutionRef: row.resolution_ref,
    date: row.date,
    financialYearEnd: row.financial_year_end,
    attendees: ids.map((id) => ({ id, fullName: names.get(id) ?? id })),
    chairId: row.chair_id,
    retainedProfitPence: row.retained_profit,
    totalDividendPence: row.total_dividend,
    declaredPence: Number(declared.total),
    remainingAllocationPence: row.total_dividend - Number(declared.total),
    notes: row.notes,
    status: row.status,
    createdAt: row.created_at,
  };
}

export async function findMinutes(db: Kysely<OrgDb>, id: string): Promise<BoardMinutesTable> {
  return found(db.selectFrom('board_minutes').selectAll().where('id', '=', id).executeTakeFirst(), 'board minutes', id);
}

export interface MinutesInput {
  readonly attendees: readonly string[];
  readonly chairId?: string | undefined;
  readonly date: string;
  readonly financialYearEnd: string;
  readonly retainedProfitPence?: number | undefined;
  readonly totalDividendPence: number;
  readonly notes?: string | null | undefined;
}

/** Minutes of a board meeting resolving a total dividend out of the year's available profit; the resolution reference is BR-YYYY-NNN by the meeting's year. */
export async function recordMinutes(trx: Kysely<OrgDb>, posting: Posting, input: MinutesInput): Promise<Minutes> {
  await requireCompany(trx);
  const attendees = [...new Set(input.attendees)];
  // Those who were directors on the meeting's date: a connected person (a spouse, say) is no director.
  for (const id of attendees) {
    const d = await trx
      .selectFrom('directors')
      .select(['is_active', 'full_name', 'appointed_date', 'resigned_date', 'connected_to_director_id', 'relationship'])
      .where('id', '=', id)
      .executeTakeFirst();
    const refuse = (why: string) => new AppError('validation_error', `attendees: ${why}`, 'attendees');
    if (!d) throw refuse(`no director ${id}`);
    if (d.connected_to_director_id !== null)
      throw refuse(`${d.full_name} is connected to a director (${d.relationship ?? 'associate'}), not a director, and cannot attend a board meeting`);
    if (d.appointed_date !== null && d.appointed_date > input.date)
      throw refuse(`${d.full_name} was appointed on ${d.appointed_date}, after the meeting of ${input.date}`);
    if (d.resigned_date !== null ? d.resigned_date <= input.date : d.is_active !== 1)
      throw refuse(
        `${d.full_name} had resigned by the meeting of ${input.date}${d.resigned_date === null ? '' : ` (on ${d.resigned_date})`} and cannot attend`,
      );
  }
  const chair = input.chairId ?? attendees[0]!;
  if (!attendees.includes(chair)) throw new AppError('validation_error', 'chairId: the chair must be among the attendees', 'chairId');
  // Profit is judged by a year's accounts: a date a day short of the year end would count the year's dividends as none.
  await yearEndingOn(trx, input.financialYearEnd, 'financialYearEnd');
  const check = await profitCheck(trx, input.financialYearEnd, input.date);
  if (input.retainedProfitPence !== undefined && input.retainedProfitPence !== check.availableProfitPence) {
    throw new AppError(
      'validation_error',
      `retainedProfitPence: the books give ${sterling(check.availableProfitPence)} available at ${input.financialYearEnd}, not ${sterling(input.retainedProfitPence)}`,
      'retainedProfitPence',
    );
  }
  if (input.totalDividendPence > check.availableProfitPence) {
    throw new AppError(
      'insufficient_profit',
      `a total of ${sterling(input.totalDividendPence)} exceeds the ${sterling(Math.max(0, check.availableProfitPence))} of profit available on ${input.date} for the year to ${input.financialYearEnd}`,
      'totalDividendPence',
    );
  }
  const year = input.date.slice(0, 4);
  const company = await trx.selectFrom('organisation').select(['name', 'company_number']).executeTakeFirstOrThrow();
  const { n } = await trx
    .selectFrom('board_minutes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('resolution_ref', 'like', `BR-${year}-%`)
    .executeTakeFirstOrThrow();
  const row: BoardMinutesTable = {
    id: newId('bm', posting.clock.now()),
    resolution_ref: `BR-${year}-${String(Number(n) + 1).padStart(3, '0')}`,
    date: input.date,
    financial_year_end: input.financialYearEnd,
    attendees_json: JSON.stringify(attendees),
    chair_id: chair,
    retained_profit: check.availableProfitPence,
    total_dividend: input.totalDividendPence,
    notes: input.notes ?? null,
    status: 'approved',
    company_name: company.name,
    company_number: company.company_number,
    created_at: timestamp(posting.clock),
  };
  await trx.insertInto('board_minutes').values(row).execute();
  return minutesView(trx, row);
}

export const paymentMethods = ['bank_transfer', 'dla_offset', 'cheque'] as const;

export const dividendSchema = z.strictObject({
  id: idOut('div'),
  voucherNumber: z.string(),
  directorId: z.string(),
  directorName: z.string(),
  boardMinutesId: z.string(),
  resolutionRef: z.string(),
  amountPence: pence().describe('gross'),
  shareClass: z.string(),
  sharesHeld: z.number().int(),
  dateDeclared: day(),
  datePaid: day().nullable(),
  paymentMethod: z.enum(paymentMethods),
  status: z.enum(['declared', 'paid', 'void']),
  financialYearEnd: day(),
  transactionId: z.string().nullable().describe('the declaration journal'),
  paymentTransactionId: z.string().nullable(),
  notes: z.string().nullable(),
  voidedAt: instant().nullable(),
  voidReason: z.string().nullable().describe('why it was voided, as given; null when not given or not void'),
  createdAt: instant(),
  updatedAt: instant(),
});
export type Dividend = z.output<typeof dividendSchema>;

export async function dividendView(db: Kysely<OrgDb>, r: DividendsTable): Promise<Dividend> {
  const director = await findDirector(db, r.director_id);
  const minutes = await findMinutes(db, r.board_minutes_id);
  return {
    id: r.id,
    voucherNumber: r.voucher_number,
    directorId: r.director_id,
    directorName: director.full_name,
    boardMinutesId: r.board_minutes_id,
    resolutionRef: minutes.resolution_ref,
    amountPence: r.amount,
    shareClass: r.share_class,
    sharesHeld: r.shares_held,
    dateDeclared: r.date_declared,
    datePaid: r.date_paid,
    paymentMethod: r.payment_method,
    status: r.status,
    financialYearEnd: r.financial_year_end,
    transactionId: r.declare_transaction_id,
    paymentTransactionId: r.pay_transaction_id,
    notes: r.notes,
    voidedAt: r.voided_at,
    voidReason: r.void_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export async function findDividend(db: Kysely<OrgDb>, id: string): Promise<DividendsTable> {
  return found(db.selectFrom('dividends').selectAll().where('id', '=', id).executeTakeFirst(), 'dividend', id);
}

export interface Declaration {
  readonly directorId: string;
  readonly boardMinutesId: string;
  readonly amountPence: number;
  readonly date: string;
  readonly paymentMethod: (typeof paymentMethods)[number];
  readonly shareClass?: string | undefined;
  readonly notes?: string | null | undefined;
  readonly createJournal?: boolean | undefined;
}

/** What declaring would post and how the profit check stands: for --dry-run, and checked again by declare. */
export interface DeclarationPlan {
  readonly profitCheck: ProfitCheck;
  readonly journal: readonly { readonly accountCode: string; readonly amountPence: number }[];
}

const divFloor = (a: bigint, b: bigint): bigint => a / b;
const divCeil = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * One rate per share for a class under one set of minutes (Model Articles
 * art. 30(4)): each holder's dividend is the rate times their shares,
 * rounded down to the penny. So a shareholder has one dividend (not void)
 * under the minutes; a declaration of A for S shares is refused unless one
 * rate r gives it and every earlier one of the class, A ≤ r × S < A + 1
 * (for each pair, A₁ × S₂ < (A₂ + 1) × S₁ both ways round); and its rate,
 * A / S, times every share of the class held at the meeting may
 * not come to more than the minutes' total less what is declared under
 * them for other classes.
 */
async function sameRate(db: Kysely<OrgDb>, minutes: Minutes, director: DirectorsTable, amount: number): Promise<void> {
  const earlier = await db
    .selectFrom('dividends')
    .select(['director_id', 'share_class', 'shares_held', 'amount', 'voucher_number'])
    .where('board_minutes_id', '=', minutes.id)
    .where('status', '!=', 'void')
    .orderBy('voucher_number')
    .execute();
  const own = earlier.find((d) => d.director_id === director.id);
  if (own) {
    throw new AppError(
      'validation_error',
      `directorId: ${director.full_name} has ${own.voucher_number} of ${sterling(own.amount)} under the minutes ${minutes.resolutionRef} already; void it to declare another`,
      'directorId',
    );
  }
  const cls = director.share_class;
  const a = BigInt(amount);
  const s = BigInt(director.shares_held);
  const perShare = `${sterling(amount)} on ${director.shares_held} ${cls} shares (${formatPerShare(amount, director.shares_held)} a share)`;
  // The class as it stood at the meeting: a holder who resigned since still held a share of it.
  const holders = await db
    .selectFrom('directors')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('shares_held'), eb.val(0)).as('n'))
    .where((eb) => eb.or([eb.and([eb('resigned_date', 'is', null), eb('is_active', '=', 1)]), eb('resigned_date', '>', minutes.date)]))
    .where('is_shareholder', '=', 1)
    .where('share_class', '=', cls)
    .executeTakeFirstOrThrow();
  const n = BigInt(Math.max(Number(holders.n), director.shares_held));
  const others = earlier.filter((d) => d.share_class !== cls).reduce((sum, d) => sum + d.amount, 0);
  const room = minutes.totalDividendPence - others;
  // The most this holding may have: its share of what the minutes leave for the class.
  const most = divFloor(BigInt(Math.max(0, room)) * s, n);
  const same = earlier.filter((d) => d.share_class === cls);
  // What this holding may have at a rate that gives every earlier holder what they have: floor(A′ × S / S′) to ceil((A′ + 1) × S / S′) − 1.
  let low = 0n;
  let high = most;
  for (const d of same) {
    const a2 = BigInt(d.amount);
    const s2 = BigInt(d.shares_held);
    const lo = divFloor(a2 * s, s2);
    const hi = divCeil((a2 + 1n) * s, s2) - 1n;
    if (lo > low) low = lo;
    if (hi < high) high = hi;
  }
  if (same.length > 0 && (a < low || a > high)) {
    const first = same[0]!;
    const range = low > high ? 'no amount to the penny' : low === high ? sterling(Number(low)) : `${sterling(Number(low))} to ${sterling(Number(high))}`;
    throw new AppError(
      'validation_error',
      `amountPence: ${perShare} is not the rate of ${first.voucher_number} under the minutes ${minutes.resolutionRef} (${sterling(first.amount)} on ${first.shares_held} shares, ${formatPerShare(first.amount, first.shares_held)} a share): every ${cls} share is paid the same (Model Articles art. 30(4)), which on ${director.full_name}'s ${director.shares_held} is ${range}`,
      'amountPence',
    );
  }
  if (a > most) {
    const forClass = others === 0 ? '' : ` less ${sterling(others)} declared under them for other classes`;
    throw new AppError(
      'validation_error',
      `amountPence: ${perShare}: the class's ${n} ${cls} shares at that rate would take ${sterling(Number(divCeil(a * n, s)))}, beyond the ${sterling(minutes.totalDividendPence)} the minutes ${minutes.resolutionRef} resolved${forClass}; at most ${sterling(Number(most))} on ${director.full_name}'s ${director.shares_held}`,
      'amountPence',
    );
  }
}

export async function planDeclaration(db: Kysely<OrgDb>, input: Declaration): Promise<DeclarationPlan> {
  await requireCompany(db);
  const director = await findDirector(db, input.directorId);
  // A director who resigned after the declaration's date was one on it, as board minutes of that date see him.
  const gone = director.resigned_date !== null ? director.resigned_date <= input.date : director.is_active !== 1;
  if (gone || director.is_shareholder !== 1) {
    throw new AppError('validation_error', `directorId: ${director.full_name} is not an active shareholder`, 'directorId');
  }
  const shareClass = input.shareClass ?? 'Ordinary';
  if (shareClass !== director.share_class) {
    throw new AppError('validation_error', `shareClass: ${director.full_name} holds ${director.share_class} shares, not ${shareClass}`, 'shareClass');
  }
  const minutes = await minutesView(db, await findMinutes(db, input.boardMinutesId));
  if (input.date < minutes.date)
    throw new AppError('validation_error', `date: the dividend cannot be declared before the board met on ${minutes.date}`, 'date');
  if (input.amountPence > minutes.remainingAllocationPence) {
    throw new AppError(
      'validation_error',
      `amountPence: the minutes ${minutes.resolutionRef} resolved ${sterling(minutes.totalDividendPence)}, of which ${sterling(minutes.remainingAllocationPence)} is left`,
      'amountPence',
    );
  }
  await sameRate(db, minutes, director, input.amountPence);
  const check = await profitCheck(db, minutes.financialYearEnd, input.date);
  if (input.amountPence > check.availableProfitPence) {
    throw new AppError(
      'insufficient_profit',
      `a dividend of ${sterling(input.amountPence)} exceeds the ${sterling(Math.max(0, check.availableProfitPence))} of profit available on ${input.date} for the year to ${minutes.financialYearEnd}`,
      'amountPence',
    );
  }
  const journal =
    input.createJournal === false
      ? []
      : [
          { accountCode: '3200', amountPence: input.amountPence },
          { accountCode: '2500', amountPence: -input.amountPence },
        ];
  return { profitCheck: check, journal };
}

export async function declareDividend(trx: Kysely<OrgDb>, posting: Posting, input: Declaration): Promise<Dividend> {
  const plan = await planDeclaration(trx, input);
  // A declaration dated in a closed year is refused with or without its journal (createJournal false posts none).
  await assertDateOpen(trx, input.date);
  const director = await findDirector(trx, input.directorId);
  const minutes = await findMinutes(trx, input.boardMinutesId);
  const org = await trx.selectFrom('organisation').select(['dividend_next_number', 'name', 'company_number']).executeTakeFirstOrThrow();
  const voucher = `DIV-${String(org.dividend_next_number).padStart(4, '0')}`;
  await trx
    .updateTable('organisation')
    .set({ dividend_next_number: org.dividend_next_number + 1 })
    .execute();
  const id = newId('div', posting.clock.now());
  let transactionId: string | null = null;
  if (plan.journal.length > 0) {
    const view = await createTransaction(trx, posting, {
      date: input.date,
      description: `Dividend ${voucher} declared, ${director.full_name}`,
      reference: voucher,
      status: 'posted',
      sourceType: 'dividend',
      sourceId: id,
      lines: await Promise.all(plan.journal.map(async (l) => ({ accountId: await chartAccountId(trx, l.accountCode), amount: l.amountPence }))),
    });
    transactionId = view.id;
  }
  const now = timestamp(posting.clock);
  const row: DividendsTable = {
    id,
    voucher_number: voucher,
    director_id: director.id,
    board_minutes_id: minutes.id,
    amount: input.amountPence,
    share_class: director.share_class,
    shares_held: director.shares_held,
    shareholder_name: director.full_name,
    shareholder_address: director.address,
    company_name: org.name,
    company_number: org.company_number,
    date_declared: input.date,
    date_paid: null,
    payment_method: input.paymentMethod,
    status: 'declared',
    financial_year_end: minutes.financial_year_end,
    declare_transaction_id: transactionId,
    pay_transaction_id: null,
    notes: input.notes ?? null,
    voided_at: null,
    void_reason: null,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('dividends').values(row).execute();
  if (input.paymentMethod === 'dla_offset') return payDividend(trx, posting, id, { date: input.date });
  return dividendView(trx, row);
}

/** Pay a declared dividend: from the bank (2500 debited), or set against the director's loan account (a dividend_offset movement). */
export async function payDividend(trx: Kysely<OrgDb>, posting: Posting, id: string, input: { readonly date: string }): Promise<Dividend> {
  await requireCompany(trx);
  const row = await findDividend(trx, id);
  if (row.status !== 'declared')
    throw new AppError(row.status === 'paid' ? 'already_paid' : 'already_voided', `dividend ${row.voucher_number} is ${row.status}`);
  if (input.date < row.date_declared)
    throw new AppError('validation_error', `date: a dividend is paid on or after it is declared (${row.date_declared})`, 'date');
  refuseAfterToday(posting, input.date, 'dividend payment');
  let payment: string | null = null;
  if (row.payment_method === 'dla_offset') {
    const dla = await addDlaTransaction(trx, posting, {
      directorId: row.director_id,
      date: input.date,
      description: `Dividend ${row.voucher_number} set against the loan account`,
      amountPence: -row.amount,
      loanType: 'dividend_offset',
      dividendId: row.id,
      createJournal: row.declare_transaction_id !== null,
    });
    payment = dla.transactionId;
  } else if (row.declare_transaction_id !== null) {
    const bank = await primaryBankAccount(trx);
    if (!bank) throw new AppError('unprocessable_entity', 'there is no primary bank account to pay the dividend from');
    const view = await createTransaction(trx, posting, {
      date: input.date,
      description: `Dividend ${row.voucher_number} paid`,
      reference: row.voucher_number,
      status: 'posted',
      sourceType: 'dividend',
      sourceId: row.id,
      lines: [
        { accountId: await chartAccountId(trx, '2500'), amount: row.amount },
        { accountId: bank.account_id, amount: -row.amount },
      ],
    });
    payment = view.id;
  }
  const next = { ...row, status: 'paid' as const, date_paid: input.date, pay_transaction_id: payment, updated_at: timestamp(posting.clock) };
  await trx.updateTable('dividends').set(next).where('id', '=', id).execute();
  return dividendView(trx, next);
}

/** Void a dividend: each of its journals reversed by a journal of its own, dated `date`, and a set-off against the loan by a movement of that date; twice is refused (409). */
export async function voidDividend(trx: Kysely<OrgDb>, posting: Posting, id: string, date: string, reason: string | null = null): Promise<Dividend> {
  await requireCompany(trx);
  const row = await findDividend(trx, id);
  if (row.status === 'void') throw new AppError('already_voided', `dividend ${row.voucher_number} is void already`);
  const since = row.date_paid ?? row.date_declared;
  if (date < since) {
    const what = row.date_paid === null ? 'declared' : 'paid';
    throw new AppError('validation_error', `date: a dividend is voided on or after it was ${what} (${since})`, 'date');
  }
  const reversedBy = new Map<string, string>();
  for (const txn of [row.declare_transaction_id, row.pay_transaction_id]) {
    if (txn === null) continue;
    const lines = await trx.selectFrom('lines').select(['account_id', 'amount']).where('transaction_id', '=', txn).orderBy('line_no').execute();
    const reversal = await createTransaction(trx, posting, {
      date,
      description: `Dividend ${row.voucher_number} voided: reverses ${txn}`,
      reference: row.voucher_number,
      status: 'posted',
      sourceType: 'dividend',
      sourceId: row.id,
      lines: lines.map((l) => ({ accountId: l.account_id, amount: -l.amount })),
    });
    reversedBy.set(txn, reversal.id);
  }
  if (row.payment_method === 'dla_offset' && row.status === 'paid') {
    // The set-off stays where it was dated (a closed year's history is not rewritten); a movement of the void's date reverses it, with
    // the journal that reversed its journal, so the loan account and 2400 part on no date.
    await reverseDividendMovements(trx, posting, row.id, date, reversedBy);
  }
  const now = timestamp(posting.clock);
  const next = { ...row, status: 'void' as const, voided_at: now, void_reason: reason, updated_at: now };
  await trx.updateTable('dividends').set(next).where('id', '=', id).execute();
  return dividendView(trx, next);
}

export const summarySchema = z.array(
  z.strictObject({ directorId: z.string(), fullName: z.string(), financialYear: day(), totalDeclaredPence: pence(), totalPaidPence: pence() }),
);

export async function dividendSummary(db: Kysely<OrgDb>, fye?: string): Promise<z.output<typeof summarySchema>> {
  await requireCompany(db);
  let q = db
    .selectFrom('dividends')
    .innerJoin('directors', 'directors.id', 'dividends.director_id')
    .select(['dividends.director_id', 'directors.full_name', 'dividends.financial_year_end'])
    .select((eb) => [
      eb.fn.sum<number>('dividends.amount').as('declared'),
      eb.fn.sum<number>(eb.case().when('dividends.status', '=', 'paid').then(eb.ref('dividends.amount')).else(0).end()).as('paid'),
    ])
    .where('dividends.status', '!=', 'void');
  if (fye !== undefined) q = q.where('dividends.financial_year_end', '=', fye);
  const rows = await q
    .groupBy(['dividends.director_id', 'directors.full_name', 'dividends.financial_year_end'])
    .orderBy('dividends.financial_year_end')
    .orderBy('directors.full_name')
    .execute();
  return rows.map((r) => ({
    directorId: r.director_id,
    fullName: r.full_name,
    financialYear: r.financial_year_end,
    totalDeclaredPence: Number(r.declared),
    totalPaidPence: Number(r.paid),
  }));
}

export const yearDividendsSchema = z.strictObject({
  declaredPence: pence().describe('declared in the financial year, not voided by its end: 3200 Dividends for the year'),
  paidPence: pence().describe('of those, paid by the year end'),
  owedAtYearEndPence: pence().describe('every dividend declared by the year end and neither paid nor voided by then: 2500 Dividends Payable'),
  byDirector: summarySchema.describe('financialYear is the year end of the pack'),
  afterYearEnd: z
    .strictObject({
      to: day().describe('the day the pack is prepared'),
      declaredPence: pence(),
      paidPence: pence().describe('paid after the year end up to that day, whenever declared'),
      declared: z.array(z.strictObject({ voucherNumber: z.string(), directorId: z.string(), fullName: z.string(), dateDeclared: day(), amountPence: pence() })),
    })
    .describe('after the year end up to preparedOn, not voided by then: events after the balance sheet date, disclosed, not in the year'),
});
export type YearDividends = z.output<typeof yearDividendsSchema>;

/**
 * The dividends of the accounts for the financial year `fy`, as the ledger
 * has them at its end (a dividend counts in the year it is declared, as
 * 3200 Dividends is debited that day, whichever year's profit the minutes
 * judged it by; paid and voided as at the year end), and those declared or
 * paid after it up to `preparedOn`. A void counts from the day of its
 * reversing journal, else the day it was made.
 */
export async function yearDividends(
  db: Kysely<OrgDb>,
  fy: { readonly startDate: string; readonly endDate: string },
  preparedOn: string,
): Promise<YearDividends> {
  await requireCompany(db);
  const rows = await db
    .selectFrom('dividends')
    .innerJoin('directors', 'directors.id', 'dividends.director_id')
    .select([
      'dividends.id',
      'dividends.voucher_number',
      'dividends.director_id',
      'directors.full_name',
      'dividends.amount',
      'dividends.date_declared',
      'dividends.date_paid',
      'dividends.status',
      'dividends.voided_at',
      'dividends.declare_transaction_id',
      'dividends.pay_transaction_id',
    ])
    .where('dividends.date_declared', '<=', preparedOn)
    .orderBy('directors.full_name')
    .orderBy('dividends.director_id')
    .orderBy('dividends.voucher_number')
    .execute();
  const voids = rows.filter((r) => r.status === 'void');
  const voidedOn = new Map<string, string>();
  if (voids.length > 0) {
    const reversals = await db
      .selectFrom('transactions')
      .select(['source_id', 'id', 'date'])
      .where('source_type', '=', 'dividend')
      .where(
        'source_id',
        'in',
        voids.map((v) => v.id),
      )
      .execute();
    for (const v of voids) {
      const own = new Set([v.declare_transaction_id, v.pay_transaction_id]);
      const dates = reversals.filter((t) => t.source_id === v.id && !own.has(t.id)).map((t) => t.date);
      voidedOn.set(v.id, dates.length > 0 ? dates.sort()[0]! : (v.voided_at ?? '').slice(0, 10));
    }
  }
  const liveOn = (r: (typeof rows)[number], d: string) => r.date_declared <= d && !((voidedOn.get(r.id) ?? '9999-12-31') <= d);
  const paidBy = (r: (typeof rows)[number], d: string) => r.date_paid !== null && r.date_paid <= d;
  const end = fy.endDate;
  const inYear = rows.filter((r) => r.date_declared >= fy.startDate && liveOn(r, end));
  const byDirector = new Map<string, z.output<typeof summarySchema>[number]>();
  for (const r of inYear) {
    const d = byDirector.get(r.director_id) ?? {
      directorId: r.director_id,
      fullName: r.full_name,
      financialYear: end,
      totalDeclaredPence: 0,
      totalPaidPence: 0,
    };
    d.totalDeclaredPence += r.amount;
    if (paidBy(r, end)) d.totalPaidPence += r.amount;
    byDirector.set(r.director_id, d);
  }
  const after = rows.filter((r) => r.date_declared > end && liveOn(r, preparedOn));
  const sum = (rs: readonly (typeof rows)[number][]) => rs.reduce((s, r) => s + r.amount, 0);
  return {
    declaredPence: sum(inYear),
    paidPence: sum(inYear.filter((r) => paidBy(r, end))),
    owedAtYearEndPence: sum(rows.filter((r) => liveOn(r, end) && !paidBy(r, end))),
    byDirector: [...byDirector.values()],
    afterYearEnd: {
      to: preparedOn,
      declaredPence: sum(after),
      paidPence: sum(rows.filter((r) => liveOn(r, preparedOn) && r.date_paid !== null && r.date_paid > end && r.date_paid <= preparedOn)),
      declared: after.map((r) => ({
        voucherNumber: r.voucher_number,
        directorId: r.director_id,
        fullName: r.full_name,
        dateDeclared: r.date_declared,
        amountPence: r.amount,
      })),
    },
  };
}
