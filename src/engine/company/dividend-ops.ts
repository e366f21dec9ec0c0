/**
 * The operations of dividends (dividends.ts) and board minutes. Scopes
 * dividends:read and dividends:write; a limited company only (422).
 */
import { z } from 'zod';
import { defineOperation, orgOf, pdfFile } from '../operation.js';
import { AppError } from '../errors.js';
import { idOf, isoDate, pence } from '../schema.js';
import { postingOf } from '../ledger/posting.js';
import { today } from '../clock.js';
import { listPage, numberLength, pageMetaSchema, pageQuery } from '../pagination.js';
import { requireCompany, yearEndingOn } from './directors.js';
import { dividendTax, maxIncomePence } from './dividend-tax.js';
import { taxYearOf } from './tax-years.js';
import { voucherDataHash } from '../../pdf/voucher-hash.js';
import { minutesData, minutesPdf, voucherData, voucherPdf } from './documents.js';
import { yearEndPack, yearEndSchema } from './year-end.js';
import {
  declareDividend,
  dividendSchema,
  dividendSummary,
  dividendView,
  findDividend,
  findMinutes,
  minutesSchema,
  minutesView,
  paymentMethods,
  planDeclaration,
  profitCheck,
  profitCheckSchema,
  recordMinutes,
  summarySchema,
  voidDividend,
  payDividend,
} from './dividends.js';

const params = { id: idOf('div') };

export const profitCheckOp = defineOperation({
  name: 'dividends.profit-check',
  summary: 'The profit available for dividends of a financial year: retained earnings less what is declared',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/profit-check',
  query: { financialYearEnd: isoDate() },
  output: profitCheckSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    await yearEndingOn(db, input.financialYearEnd, 'financialYearEnd');
    return { data: await profitCheck(db, input.financialYearEnd) };
  },
});

export const recordMinutesOp = defineOperation({
  name: 'dividends.minutes',
  summary: 'Record board minutes resolving a total dividend (attendees active directors; a resolution reference made)',
  description:
    'totalDividendPence beyond the profit available for the financial year is 422 insufficient_profit; retainedProfitPence, when sent, must be what the books give.',
  access: 'dividends:write',
  method: 'POST',
  path: '/dividends/board-minutes',
  status: 201,
  body: {
    attendees: z.array(idOf('dir')).min(1).max(50),
    chairId: idOf('dir').optional().describe('default: the first attendee'),
    date: isoDate(),
    financialYearEnd: isoDate(),
    retainedProfitPence: pence().optional(),
    totalDividendPence: pence().min(1),
    notes: z.string().max(5000).nullable().optional(),
  },
  output: minutesSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => recordMinutes(trx, postingOf(ctx), input)) };
  },
});

export const listMinutesOp = defineOperation({
  name: 'dividends.minutes-list',
  summary: 'List board minutes, newest first',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/board-minutes',
  query: pageQuery(),
  output: z.array(minutesSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    const { rows, meta } = await listPage(db.selectFrom('board_minutes'), (all) => all.selectAll().orderBy('date', 'desc').orderBy('id', 'desc'), input);
    return { data: await Promise.all(rows.map((r) => minutesView(db, r))), meta };
  },
});

export const getMinutesOp = defineOperation({
  name: 'dividends.minutes-get',
  summary: 'Show board minutes',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/board-minutes/{id}',
  params: { id: idOf('bm') },
  output: minutesSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    return { data: await minutesView(db, await findMinutes(db, input.id)) };
  },
});

const declaration = {
  directorId: idOf('dir'),
  boardMinutesId: idOf('bm'),
  amountPence: pence().min(1),
  date: isoDate(),
  paymentMethod: z.enum(paymentMethods).default('bank_transfer'),
  shareClass: z.string().max(50).optional().describe('default Ordinary'),
  notes: z.string().max(2000).nullable().optional(),
  createJournal: z.boolean().optional().describe('default true'),
};

export const declareDividendOp = defineOperation({
  name: 'dividends.declare',
  summary: 'Declare a dividend to an active shareholder under board minutes: 3200 Dividends debited, 2500 Dividends Payable credited',
  description:
    'Beyond the profit available for the minutes’ financial year: 422 insufficient_profit. paymentMethod dla_offset sets it against the director’s loan account and marks it paid at once. Vouchers are numbered DIV-0001 onward.',
  access: 'dividends:write',
  method: 'POST',
  path: '/dividends',
  status: 201,
  dryRun: 'dividends.plan',
  body: declaration,
  output: dividendSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => declareDividend(trx, postingOf(ctx), input)) };
  },
});

export const planDividendOp = defineOperation({
  name: 'dividends.plan',
  summary: 'What declaring would post, and the profit check, without declaring (acct dividends declare --dry-run)',
  access: 'dividends:read',
  method: 'POST',
  path: '/dividends/plan',
  body: declaration,
  output: z.strictObject({
    profitCheck: profitCheckSchema,
    journal: z.array(z.strictObject({ accountCode: z.string(), amountPence: pence() })),
  }),
  async run(ctx, input) {
    const plan = await planDeclaration(orgOf(ctx).db, input);
    return { data: { profitCheck: plan.profitCheck, journal: [...plan.journal] } };
  },
});

export const listDividendsOp = defineOperation({
  name: 'dividends.list',
  summary: 'List dividends, newest declaration first',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends',
  query: { directorId: idOf('dir').optional(), financialYearEnd: isoDate().optional(), ...pageQuery() },
  output: z.array(dividendSchema),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    let q = db.selectFrom('dividends');
    if (input.directorId) q = q.where('director_id', '=', input.directorId);
    if (input.financialYearEnd) q = q.where('financial_year_end', '=', input.financialYearEnd);
    const { rows, meta } = await listPage(
      q,
      (all) =>
        all
          .selectAll()
          .orderBy('date_declared', 'desc')
          .orderBy(numberLength('voucher_number'), 'desc')
          .orderBy('voucher_number', 'desc')
          .orderBy('id', 'desc'),
      input,
    );
    return { data: await Promise.all(rows.map((r) => dividendView(db, r))), meta };
  },
});

export const getDividendOp = defineOperation({
  name: 'dividends.get',
  summary: 'Show a dividend',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/{id}',
  params,
  output: dividendSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    return { data: await dividendView(db, await findDividend(db, input.id)) };
  },
});

export const payDividendOp = defineOperation({
  name: 'dividends.pay',
  summary: 'Pay a declared dividend (2500 debited, the bank credited; or set against the loan account)',
  access: 'dividends:write',
  method: 'PATCH',
  path: '/dividends/{id}/pay',
  params,
  body: {
    date: isoDate().optional().describe('default today'),
    paidDate: isoDate().optional().describe('the same as date, by its published name'),
  },
  output: dividendSchema,
  async run(ctx, input) {
    if (input.date !== undefined && input.paidDate !== undefined && input.date !== input.paidDate)
      throw new AppError('validation_error', `paidDate: ${input.paidDate} differs from date ${input.date}; give one`, 'paidDate');
    const date = input.paidDate ?? input.date ?? today(ctx.clock);
    return { data: await orgOf(ctx).write((trx) => payDividend(trx, postingOf(ctx), input.id, { date })) };
  },
});

export const voidDividendOp = defineOperation({
  name: 'dividends.void',
  summary: 'Void a dividend: every journal of it reversed; voiding twice is refused',
  access: 'dividends:write',
  method: 'POST',
  path: '/dividends/{id}/void',
  params,
  body: {
    date: isoDate().optional().describe('the reversals’ date, default today'),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe('why, kept with the dividend (voidReason)')
      .meta({ examples: ['"declared in error: the accounts were not final"'] }),
  },
  output: dividendSchema,
  async run(ctx, input) {
    return {
      data: await orgOf(ctx).write((trx) => voidDividend(trx, postingOf(ctx), input.id, input.date ?? today(ctx.clock), input.reason ?? null)),
    };
  },
});

export const dividendSummaryOp = defineOperation({
  name: 'dividends.summary',
  summary: 'Dividends declared and paid, by director and financial year',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/summary',
  query: { financialYearEnd: isoDate().optional() },
  output: summarySchema,
  async run(ctx, input) {
    return { data: await dividendSummary(orgOf(ctx).db, input.financialYearEnd) };
  },
});

const band = z.strictObject({ rate: z.number().describe('a fraction: 0.0875 is 8.75%'), taxPence: pence() });

export const taxCalculatorOp = defineOperation({
  name: 'dividends.tax',
  summary: 'The income tax on a dividend for a tax year: each band, the allowance used, the net dividend',
  description:
    'Dividends are the top slice of income: other income takes the personal allowance and band space first. taxYear as 2025/26 (default: the current one); the rates are the tax year’s (10.75/35.75/39.35% from 2026/27).',
  access: 'dividends:read',
  method: 'POST',
  path: '/dividends/tax-calculator',
  body: {
    grossDividendPence: pence().min(0).max(maxIncomePence),
    otherIncomePence: pence().min(0).max(maxIncomePence).optional(),
    personalAllowanceUsedPence: pence().min(0).optional().describe('the personal allowance before the taper; default the year’s standard one'),
    taxYear: z
      .string()
      .regex(/^\d{4}\/\d{2}$/, 'must be a tax year as 2025/26')
      .optional(),
  },
  output: z.strictObject({
    calculation: z.strictObject({
      basicRate: band,
      higherRate: band,
      additionalRate: band,
      dividendAllowancePence: pence(),
      taxableAfterAllowancePence: pence(),
      totalTaxPence: pence(),
      netDividendPence: pence(),
      effectiveRate: z.number(),
    }),
    input: z.strictObject({ grossDividendPence: pence(), otherIncomePence: pence(), personalAllowanceUsedPence: pence() }),
    taxYear: z.string(),
  }),
  async run(ctx, input) {
    // A sole trader pays no dividends: refused as every other dividends endpoint is.
    await requireCompany(orgOf(ctx).db);
    return { data: dividendTax({ ...input, taxYear: input.taxYear ?? taxYearOf(today(ctx.clock)) }) };
  },
});

export const voucherOp = defineOperation({
  name: 'dividends.voucher',
  summary: 'The dividend voucher as a PDF: per-share amount, shares held, resolution reference, verification hash; PAID once paid',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/{id}/voucher',
  params,
  produces: 'application/pdf',
  output: z.strictObject({ id: z.string(), voucherNumber: z.string(), verificationHash: z.string(), bytes: z.number().int() }),
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    const data = await voucherData(db, input.id);
    const bytes = await voucherPdf(data);
    return {
      data: { id: input.id, voucherNumber: data.voucherNumber, verificationHash: voucherDataHash(data), bytes: bytes.length },
      file: pdfFile(data.voucherNumber, bytes),
    };
  },
});

export const minutesPdfOp = defineOperation({
  name: 'dividends.minutes-pdf',
  summary: 'Board minutes as a PDF, for the chair to sign',
  access: 'dividends:read',
  method: 'GET',
  path: '/dividends/board-minutes/{id}/pdf',
  params: { id: idOf('bm') },
  produces: 'application/pdf',
  output: z.strictObject({ id: z.string(), resolutionRef: z.string(), bytes: z.number().int() }),
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    await requireCompany(db);
    const data = await minutesData(db, input.id);
    const bytes = await minutesPdf(data);
    return { data: { id: input.id, resolutionRef: data.resolutionReference, bytes: bytes.length }, file: pdfFile(data.resolutionReference, bytes) };
  },
});

export const yearEndOp = defineOperation({
  name: 'company.year-end',
  cli: { custom: true },
  summary: "The year-end pack: directors' loans with S455 (CT600A) and beneficial loans (P11D), dividends declared and paid, the profit check",
  description:
    'year is the calendar year the financial year ends in (2025: the year to 31 March 2025 for a 1 April start). preparedOn (default today, on or after the year end and not after today) is the day the books are read to: a loan repaid by then, within nine months of the year end, owes no S455.',
  access: 'reports:read',
  method: 'GET',
  path: '/company/year-end',
  query: { year: z.number().int().min(2000).max(2100), preparedOn: isoDate().optional() },
  output: yearEndSchema,
  async run(ctx, input) {
    return { data: await yearEndPack(orgOf(ctx).db, ctx.clock, input.year, input.preparedOn) };
  },
});
