/**
 * VAT returns as records: the periods of the organisation with their
 * returns, filed (figures frozen) or draft (worked out now from the entries
 * a filing would take), and the view both share.
 *
 * A period's return takes every posted entry not yet in a filed return,
 * dated from the first period's start to the period's end: entries dated in
 * an earlier, filed period (corrections, late bills) land in the next open
 * return, as HMRC allows for errors under the threshold. On the accrual
 * basis it takes documents' and manual lines' entries; on the cash basis
 * payments' shares and manual lines'. A document whose VAT was filed on one
 * basis is not counted again on the other; a document partly paid on the
 * cash basis and then counted on the accrual basis counts less what the
 * cash returns already took.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { today, type Clock } from '../clock.js';
import { instant, day, idOut } from '../output.js';
import { pence } from '../schema.js';
import { deregisteredFrom, loadOrganisation, schemeOn, type OrganisationRow } from '../organisation/organisation.js';
import { addDays, addYears } from '../dates.js';
import { deriveBoxes, type BoxEntry, type Derived, type FlatRatePart } from './boxes.js';
import { endMonthsOf, firstPeriodStart, periodOfKey, periodsUntil, quarterEndMonth, type VatPeriod } from './periods.js';
import type { OrgDb, VatBasis, VatReturnsTable } from '../../store/tables.js';

export const boxDescriptions = {
  box1: 'VAT due on sales and other outputs',
  box2: 'VAT due on acquisitions of goods from EU member states',
  box3: 'Total VAT due (box 1 + box 2)',
  box4: 'VAT reclaimed on purchases and other inputs',
  box5: 'Net VAT to pay to HMRC or reclaim (the difference between box 3 and box 4)',
  box6: 'Total value of sales and all other outputs, excluding VAT (whole pounds)',
  box7: 'Total value of purchases and all other inputs, excluding VAT (whole pounds)',
  box8: 'Total value of supplies of goods to EU member states, excluding VAT (whole pounds)',
  box9: 'Total value of acquisitions of goods from EU member states, excluding VAT (whole pounds)',
} as const;

const flatRateDescriptions = {
  ...boxDescriptions,
  box1: 'VAT due: the flat rate × VAT-inclusive turnover (box 6), one point lower on turnover dated in the first year of VAT registration',
  box4: 'VAT reclaimed on capital purchases of £2,000 or more including VAT',
  box6: 'Total value of sales and all other outputs, including VAT (flat rate scheme; whole pounds)',
  box7: 'Capital purchases of £2,000 or more including VAT, excluding VAT (whole pounds)',
} as const;

/** The days of rate `i` among several: the first "to" its last day, the last "from" its first, one between both. */
export function rateDays(rates: readonly FlatRatePart[], i: number): string {
  const r = rates[i]!;
  if (rates.length > 1 && i === 0) return `to ${r.to}`;
  if (rates.length > 1 && i === rates.length - 1) return `from ${r.from}`;
  return `from ${r.from} to ${r.to}`;
}

/** Box 1 under the flat rate scheme, naming the rates applied: one, or each with its days. */
function flatRateBox1(rates: readonly FlatRatePart[], flatRatePercent: number): string {
  const [only] = rates;
  if (rates.length === 1 && only !== undefined) {
    const lower = only.percent === flatRatePercent ? '' : ` (the ${flatRatePercent}% flat rate less 1 point in the first year of VAT registration)`;
    return `VAT due: ${only.percent}%${lower} × VAT-inclusive turnover (box 6)`;
  }
  const each = rates.map((r, i) => `${r.percent}% × ${i === 0 ? 'VAT-inclusive turnover' : 'that'} dated ${rateDays(rates, i)}`);
  return `VAT due: ${each.join(' + ')} (together box 6)`;
}

/** What each box holds, in the scheme's words; box 1 naming the flat rates applied when they are known. */
export function descriptionsOf(scheme: 'standard' | 'flat_rate', flatRates: readonly FlatRatePart[] | null = null, flatRatePercent = 0) {
  if (scheme !== 'flat_rate') return boxDescriptions;
  if (flatRates === null || flatRates.length === 0) return flatRateDescriptions;
  return { ...flatRateDescriptions, box1: flatRateBox1(flatRates, flatRatePercent) };
}

const boxNames = ['box1', 'box2', 'box3', 'box4', 'box5', 'box6', 'box7', 'box8', 'box9'] as const;
const perBox = <T extends z.ZodType>(value: () => T) =>
  z.strictObject(Object.fromEntries(boxNames.map((b) => [b, value()])) as Record<(typeof boxNames)[number], T>);

export const vatSchemesWithReturns = ['standard', 'flat_rate'] as const;
export const netVatDirections = ['payable', 'repayable', 'nil'] as const;
export const returnStatuses = ['draft', 'filed', 'submitted'] as const;

export const vatReturnSchema = z.strictObject({
  id: idOut('vatr').nullable().describe('null while the return is a draft'),
  periodKey: z.string().describe('YYYY-MM: the month the VAT period ends'),
  period: z.strictObject({ from: day(), to: day() }),
  dueDate: day().describe('one month and seven days after the period ends (two months for an annual return)'),
  status: z.enum(returnStatuses).describe('draft: worked out now; filed: frozen in the books; submitted: sent to HMRC'),
  scheme: z.enum(vatSchemesWithReturns),
  basis: z.enum(['accrual', 'cash']),
  flatRatePercent: z.number().nullable().describe('the flat rate percentage (16.5 for 16.5%), before any first-year discount; null under the standard scheme'),
  boxes: perBox(() => pence()).describe('pence; boxes 6 to 9 rounded to whole pounds'),
  exact: z.strictObject({ box6: pence(), box7: pence(), box8: pence(), box9: pence() }).describe('boxes 6 to 9 in pence, before rounding'),
  netVatDirection: z.enum(netVatDirections).describe('box 5 is owed to HMRC (payable) or by HMRC (repayable)'),
  flatRateSurplus: pence().describe('flat rate: VAT charged less flat-rate VAT due, income when filed; 0 otherwise'),
  flatRates: z
    .array(
      z.strictObject({
        from: day(),
        to: day(),
        percent: z.number().describe('the rate applied (13.5 for 13.5%): the flat rate, or one point lower in the first year of VAT registration'),
        turnover: pence().describe('the VAT-inclusive turnover dated from `from` to `to`'),
        vat: pence().describe("this rate's part of box 1: percent × turnover, to the nearest penny"),
      }),
    )
    .nullable()
    .describe(
      'flat rate: each rate applied with its days, oldest first: vat parts sum to box 1, turnovers to exact box 6 (a correction dated before ' +
        'the period, carried into this return, stretches its part back to its day); null under the standard scheme, and on a flat-rate ' +
        'return filed before acct recorded them',
    ),
  description: perBox(() => z.string()).describe("what each box holds, in the scheme's words"),
  transactionId: idOut('txn').nullable().describe('the settlement journal filing posted'),
  filedAt: instant().nullable(),
  submittedAt: instant().nullable(),
});
export type VatReturnView = z.output<typeof vatReturnSchema>;

export const vatPeriodSchema = z.strictObject({
  periodKey: z.string(),
  from: day(),
  to: day(),
  dueDate: day(),
  status: z.enum(['open', 'ended', 'filed', 'submitted']).describe('open: not yet ended; ended: ready to file; filed; submitted to HMRC'),
  returnId: idOut('vatr').nullable(),
  netVat: pence().nullable().describe('box 5 of the filed return'),
  netVatDirection: z.enum(netVatDirections).nullable(),
});
export type VatPeriodView = z.output<typeof vatPeriodSchema>;

/** The organisation's VAT settings, refusing a business with no returns. */
export function registered(org: OrganisationRow): OrganisationRow & { vat_scheme: 'standard' | 'flat_rate' } {
  if (org.vat_scheme === 'not_registered') {
    throw new AppError('unprocessable_entity', 'the organisation is not registered for VAT (vatScheme not_registered), so it has no VAT returns');
  }
  return org as OrganisationRow & { vat_scheme: 'standard' | 'flat_rate' };
}

/** The VAT registration the returns are of: the scheme in force on its last day, and that day once registration has ended (else null). */
export interface Registration {
  readonly org: OrganisationRow & { vat_scheme: 'standard' | 'flat_rate' };
  readonly lastDay: string | null;
}

/**
 * The registration the VAT returns are of: the organisation's while it is
 * registered; once it has left VAT from a day (a not_registered change,
 * dated), the one that ended the day before, whose returns are still
 * shown and filed up to that day. Refused (422) when it never was, or left
 * before acct dated leaving.
 */
export async function registration(db: Kysely<OrgDb>, org: OrganisationRow): Promise<Registration> {
  const ended = await deregisteredFrom(db, org);
  if (ended === null) return { org: registered(org), lastDay: null };
  const lastDay = addDays(ended, -1);
  return { org: registered(await schemeOn(db, org, lastDay)), lastDay };
}

/** Where the first VAT period starts. */
export async function firstStart(db: Kysely<OrgDb>, org: OrganisationRow, clock: Clock): Promise<string> {
  if (org.vat_registration_date !== null) return org.vat_registration_date;
  const earliest = await db
    .selectFrom('vat_entries')
    .select((eb) => eb.fn.min<string>('date').as('d'))
    .executeTakeFirst();
  return firstPeriodStart(org, earliest?.d ?? today(clock));
}

/**
 * The period a key names, or 404: the month it ends (YYYY-MM), or a calendar
 * quarter (YYYY-Qn) for the period ending in the quarter's last month.
 */
export async function periodOf(db: Kysely<OrgDb>, org: OrganisationRow, clock: Clock, key: string, lastDay: string | null = null): Promise<VatPeriod> {
  const quarterEnd = quarterEndMonth(key);
  const month = quarterEnd ?? (/^\d{4}-\d{2}$/.test(key) ? key : null);
  const period = month === null ? null : periodOfKey(org, month, await firstStart(db, org, clock), lastDay);
  if (period === null && lastDay !== null && month !== null && month > lastDay.slice(0, 7)) {
    throw new AppError(
      'not_found',
      `no VAT period ends in ${key}: the VAT registration ended on ${lastDay}, the last day of the final period (${lastDay.slice(0, 7)})`,
    );
  }
  if (period !== null) return period;
  if (quarterEnd !== null) {
    const ends = endMonthsOf(org, Number(quarterEnd.slice(0, 4)));
    // The stagger ends no period in that month: say which months do (a quarter before the first period is told as a month is).
    if (!ends.includes(quarterEnd)) {
      const listed = ends.length === 1 ? ends[0]! : `${ends.slice(0, -1).join(', ')} and ${ends.at(-1)!}`;
      throw new AppError('not_found', `no VAT period ends in ${key} (its last month is ${quarterEnd}): periods end in ${listed}`);
    }
  }
  throw new AppError('not_found', `no VAT period ends in ${key}: periods are named by the month they end (YYYY-MM) or by the quarter (YYYY-Q1 to YYYY-Q4)`);
}

/**
 * The sales documents dated before the VAT registration date, and the
 * credit notes on them: sales made unregistered, in no return whenever
 * they are paid or credited. None without a registration date.
 */
function preRegistrationSales(db: Kysely<OrgDb>) {
  const since = db.selectFrom('organisation').select('vat_registration_date');
  return db
    .selectFrom('invoices as d')
    .select('d.id')
    .where('d.kind', '=', 'sales')
    .where('d.issue_date', '<', since)
    .union(
      db
        .selectFrom('credit_notes as c')
        .innerJoin('invoices as d', 'd.id', 'c.invoice_id')
        .select('c.id')
        .where('c.kind', '=', 'sales')
        .where('d.issue_date', '<', since),
    );
}

/**
 * The posted entries that count on `basis` (its own and manual lines'),
 * dated from `from` to `to`; with `earlierPurchases`, purchases dated
 * before `from` too: a return from the first period's start takes the VAT
 * of purchases made before registering (HMRC's pre-registration input tax:
 * goods still held, within 4 years; services, within 6 months; acct cannot
 * tell which, so it takes them all), while sales before it charged none.
 * A sale made before the registration date is in no return: neither its
 * payments (cash basis) nor a credit note on it, though dated after.
 */
export function postedEntries(db: Kysely<OrgDb>, basis: VatBasis, from: string, to: string, earlierPurchases = false) {
  return db
    .selectFrom('vat_entries as e')
    .innerJoin('transactions as t', 't.id', 'e.transaction_id')
    .where('t.status', '=', 'posted')
    .where('e.basis', 'in', [basis, 'both'])
    .where((eb) => (earlierPurchases ? eb.or([eb('e.date', '>=', from), eb('e.direction', '=', 'purchase')]) : eb('e.date', '>=', from)))
    .where('e.date', '<=', to)
    .where((eb) => eb.or([eb('e.direction', '=', 'purchase'), eb('e.document_id', 'is', null), eb('e.document_id', 'not in', preRegistrationSales(db))]));
}

/**
 * The entries a filing of a return dated from `start` to `end` on `basis`
 * would take: real ones (with ids; the earliest dated `earliest`) and the
 * cash already counted of documents now counted whole. A return from the
 * first period's start (`first`) takes purchases dated before it too.
 */
export async function entriesFor(
  db: Kysely<OrgDb>,
  basis: VatBasis,
  start: string,
  end: string,
  first: string,
): Promise<{ ids: string[]; entries: BoxEntry[]; earliest: string | null }> {
  const other = basis === 'accrual' ? 'cash' : 'accrual';
  const stampedOther = db
    .selectFrom('vat_entries as s')
    .select('s.document_id')
    .where('s.basis', '=', other)
    .where('s.return_id', 'is not', null)
    .where('s.document_id', 'is not', null);
  let query = postedEntries(db, basis, start, end, start <= first)
    .select(['e.id', 'e.date', 'e.direction', 'e.net', 'e.vat', 'e.reclaimable', 'e.capital', 'e.vat_account_id', 'e.document_id'])
    .where('e.return_id', 'is', null);
  // Joining the cash basis: a document whose VAT an accrual return took is not counted again as it is paid.
  if (basis === 'cash') query = query.where((eb) => eb.or([eb('e.document_id', 'is', null), eb('e.document_id', 'not in', stampedOther)]));
  const taken = await query.orderBy('e.date').orderBy('e.id').execute();
  const entries: BoxEntry[] = taken;
  if (basis === 'accrual') {
    // Leaving the cash basis: a document counted now in full less what cash returns already took of it.
    const documents = [...new Set(taken.map((e) => e.document_id).filter((d): d is string => d !== null))];
    if (documents.length > 0) {
      const counted = await stampedOther
        .clearSelect()
        .select(['s.date', 's.direction', 's.net', 's.vat', 's.reclaimable', 's.capital', 's.vat_account_id'])
        .where('s.document_id', 'in', documents)
        .execute();
      for (const c of counted) entries.push({ ...c, date: end, net: -c.net, vat: -c.vat });
    }
  }
  return { ids: taken.map((e) => e.id), entries, earliest: taken[0]?.date ?? null };
}

/** Whether `period` is the final one: the organisation left VAT the day after it ends. */
async function endsRegistration(db: Kysely<OrgDb>, period: VatPeriod): Promise<boolean> {
  const last = await db.selectFrom('vat_schemes').select(['from_date', 'scheme']).orderBy('from_date', 'desc').limit(1).executeTakeFirst();
  return last?.scheme === 'not_registered' && addDays(last.from_date, -1) === period.end;
}

/**
 * The entries of the final return on the cash basis: every supply made and
 * received while registered that no return has taken, paid or not (VAT
 * Regulations 1995 reg. 63(1); HMRC's VATDREG08050), so each document counts
 * in full less what cash returns already took of it, as on leaving the cash
 * basis. The cash entries of payments up to the end are inside those
 * documents: stamped with the return, not counted again.
 */
async function finalCashEntries(db: Kysely<OrgDb>, first: string, end: string): Promise<{ ids: string[]; entries: BoxEntry[] }> {
  const whole = await entriesFor(db, 'accrual', first, end, first);
  const paid = await postedEntries(db, 'cash', first, end, true).select('e.id').where('e.basis', '=', 'cash').where('e.return_id', 'is', null).execute();
  return { ids: [...whole.ids, ...paid.map((e) => e.id)], entries: whole.entries };
}

/** Turnover dated before this day takes the flat rate one point lower: the day of registration's first anniversary. */
export const discountUntil = (org: OrganisationRow): string | null =>
  org.vat_scheme === 'flat_rate' && org.vat_registration_date !== null ? addYears(org.vat_registration_date, 1) : null;

/** Refuse a period with transactions on suspense (9999): it is not yet categorised. */
export async function refuseIncomplete(db: Kysely<OrgDb>, from: string, to: string): Promise<void> {
  const suspense = await db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .where('lines.posted', '=', 1)
    .where('lines.date', '>=', from)
    .where('lines.date', '<=', to)
    .where('accounts.code', '=', '9999')
    .select((eb) => eb.fn.count<number>('lines.transaction_id').distinct().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(suspense.n) > 0) {
    throw new AppError(
      'incomplete_ledger',
      `${suspense.n} transaction(s) in ${from} to ${to} are still on the suspense account 9999: categorise them before the VAT return`,
    );
  }
}

/**
 * What a return of `period` waits for: the first earlier period not filed
 * whose return would take entries (periods are filed in order), and the
 * last earlier period not filed, the day after which a draft of `period`
 * alone starts; null when no earlier period holds entries. An earlier
 * period with nothing in it need not be filed first (books started in acct
 * after registration need not file the empty returns before them).
 */
export async function waitingFor(
  db: Kysely<OrgDb>,
  org: OrganisationRow,
  start: string,
  period: VatPeriod,
  lastDay: string | null = null,
): Promise<{ readonly first: VatPeriod; readonly last: VatPeriod } | null> {
  const done = new Set((await db.selectFrom('vat_returns').select('period_end').execute()).map((r) => r.period_end));
  const earlier = periodsUntil(org, start, period.start, lastDay).filter((p) => p.end < period.end && !done.has(p.end));
  const last = earlier.at(-1);
  if (last === undefined) return null;
  const waiting = await postedEntries(db, org.vat_accounting_basis, start, last.end, true)
    .select('e.date')
    .where('e.return_id', 'is', null)
    .orderBy('e.date')
    .limit(1)
    .executeTakeFirst();
  const first = waiting && earlier.find((p) => waiting.date <= p.end);
  return first ? { first, last } : null;
}

export interface Draft {
  readonly period: VatPeriod;
  readonly org: OrganisationRow & { vat_scheme: 'standard' | 'flat_rate' };
  readonly basis: VatBasis;
  readonly ids: string[];
  readonly derived: Derived;
}

/**
 * What filing `period` now would give; `from` (default the first period's
 * start) is where its entries start: the day after an earlier unfiled
 * period whose draft takes what is dated before.
 */
export async function draftReturn(db: Kysely<OrgDb>, orgRow: OrganisationRow, clock: Clock, period: VatPeriod, from?: string): Promise<Draft> {
  const org = await schemeOn(db, registered(orgRow), period.start);
  const basis = org.vat_accounting_basis;
  const first = await firstStart(db, org, clock);
  const { ids, entries } =
    basis === 'cash' && (await endsRegistration(db, period))
      ? await finalCashEntries(db, first, period.end)
      : await entriesFor(db, basis, from ?? first, period.end, first);
  const scheme = { scheme: org.vat_scheme, flatRateBp: org.vat_flat_rate_bp, discountUntil: discountUntil(org) };
  const derived = deriveBoxes(entries, scheme, { startDate: period.start, endDate: period.end });
  return { period, org, basis, ids, derived };
}

export function draftView(d: Draft): VatReturnView {
  const flat = d.org.vat_scheme === 'flat_rate';
  const flatRatePercent = flat ? (d.org.vat_flat_rate_bp ?? 0) / 100 : null;
  return {
    id: null,
    periodKey: d.period.key,
    period: { from: d.period.start, to: d.period.end },
    dueDate: d.period.due,
    status: 'draft',
    scheme: d.org.vat_scheme,
    basis: d.basis,
    flatRatePercent,
    boxes: d.derived.boxes,
    exact: d.derived.exact,
    netVatDirection: d.derived.direction,
    flatRateSurplus: d.derived.flatRateSurplus,
    flatRates: d.derived.flatRates,
    description: descriptionsOf(d.org.vat_scheme, d.derived.flatRates, flatRatePercent ?? 0),
    transactionId: null,
    filedAt: null,
    submittedAt: null,
  };
}

export function filedView(r: VatReturnsTable): VatReturnView {
  const flat = r.scheme === 'flat_rate';
  const flatRatePercent = flat ? (r.flat_rate_bp ?? 0) / 100 : null;
  const flatRates = r.flat_rates === null ? null : (JSON.parse(r.flat_rates) as FlatRatePart[]);
  return {
    id: r.id,
    periodKey: r.period_end.slice(0, 7),
    period: { from: r.period_start, to: r.period_end },
    dueDate: r.due_date,
    status: r.submitted_at === null ? 'filed' : 'submitted',
    scheme: r.scheme,
    basis: r.basis,
    flatRatePercent,
    boxes: { box1: r.box1, box2: r.box2, box3: r.box3, box4: r.box4, box5: r.box5, box6: r.box6, box7: r.box7, box8: r.box8, box9: r.box9 },
    exact: { box6: r.exact_box6, box7: r.exact_box7, box8: r.exact_box8, box9: r.exact_box9 },
    netVatDirection: r.net_vat_direction,
    flatRateSurplus: r.flat_rate_surplus,
    flatRates,
    description: descriptionsOf(r.scheme, flatRates, flatRatePercent ?? 0),
    transactionId: r.transaction_id,
    filedAt: r.filed_at,
    submittedAt: r.submitted_at,
  };
}

export const shownReturnSchema = vatReturnSchema.extend({
  fileFirst: z
    .strictObject({ periodKey: z.string(), from: day(), to: day() })
    .nullable()
    .describe(
      'an earlier period holding VAT entries not yet filed, whose return is filed first (422 vat_period_out_of_order until then); ' +
        'the draft is this period alone and leaves those entries to it; null when nothing waits',
    ),
});
export type ShownReturnView = z.output<typeof shownReturnSchema>;

/**
 * The return of a period: filed, or the draft. While an earlier period
 * holding entries is not filed, the draft is the period alone (from the day
 * after the last earlier period not filed), as filing will give it once
 * those are filed, and names the period to file first.
 */
export async function returnOfPeriod(db: Kysely<OrgDb>, clock: Clock, key: string): Promise<ShownReturnView> {
  const { org, lastDay } = await registration(db, await loadOrganisation(db));
  const period = await periodOf(db, org, clock, key, lastDay);
  const filed = await db.selectFrom('vat_returns').selectAll().where('period_end', '=', period.end).executeTakeFirst();
  if (filed) return { ...filedView(filed), fileFirst: null };
  await refuseIncomplete(db, period.start, period.end);
  const waiting = await waitingFor(db, org, await firstStart(db, org, clock), period, lastDay);
  const draft = await draftReturn(db, org, clock, period, waiting ? addDays(waiting.last.end, 1) : undefined);
  const fileFirst = waiting && { periodKey: waiting.first.key, from: waiting.first.start, to: waiting.first.end };
  return { ...draftView(draft), fileFirst };
}

/** Every period from the first to the one holding today, newest first, with its return's state. */
export async function listPeriods(db: Kysely<OrgDb>, clock: Clock): Promise<VatPeriodView[]> {
  const { org, lastDay } = await registration(db, await loadOrganisation(db));
  const now = today(clock);
  const periods = periodsUntil(org, await firstStart(db, org, clock), now, lastDay);
  const filed = new Map((await db.selectFrom('vat_returns').selectAll().execute()).map((r) => [r.period_end, r]));
  return periods.reverse().map((p) => {
    const r = filed.get(p.end);
    return {
      periodKey: p.key,
      from: p.start,
      to: p.end,
      dueDate: p.due,
      status: r ? (r.submitted_at === null ? 'filed' : 'submitted') : p.end < now ? 'ended' : 'open',
      returnId: r?.id ?? null,
      netVat: r?.box5 ?? null,
      netVatDirection: r?.net_vat_direction ?? null,
    };
  });
}
