/** The report operations: GET /reports/…, scope reports:read, reading only posted lines. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { today } from '../clock.js';
import { checkRange, idOf, reportDate } from '../schema.js';
import { balanceSheet, balanceSheetSchema, profitLoss, profitLossSchema, trialBalance, trialBalanceSchema } from './statements.js';
import { generalLedger, generalLedgerSchema, ledgerPageLimits } from './general-ledger.js';
import { cursorMetaSchema, cursorQuery } from '../pagination.js';
import { vatReturn, vatReturnSchema } from './vat.js';
import { dashboard, dashboardSchema } from './dashboard.js';
import { agedReport, agedReportSchema } from './aged.js';

const range = { from: reportDate(), to: reportDate() };

export const profitLossOp = defineOperation({
  name: 'reports.profit-loss',
  summary: 'Profit and loss over a period, optionally with the prior period of the same length',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/profit-loss',
  query: { ...range, comparative: z.boolean().default(false) },
  cli: { group: 'report' },
  output: profitLossSchema,
  async run(ctx, input) {
    checkRange(input.from, input.to);
    return { data: await profitLoss(orgOf(ctx).db, input.from, input.to, input.comparative) };
  },
});

export const balanceSheetOp = defineOperation({
  name: 'reports.balance-sheet',
  summary: 'Assets, liabilities and equity at a date; checksum is true when assets = liabilities + equity',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/balance-sheet',
  query: { asOf: reportDate() },
  cli: { group: 'report' },
  output: balanceSheetSchema,
  async run(ctx, input) {
    return { data: await balanceSheet(orgOf(ctx).db, input.asOf) };
  },
});

export const trialBalanceOp = defineOperation({
  name: 'reports.trial-balance',
  summary: 'Debit and credit balances of every account at a date (default today)',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/trial-balance',
  query: { asOf: reportDate().optional() },
  cli: { group: 'report' },
  output: trialBalanceSchema,
  async run(ctx, input) {
    return { data: await trialBalance(orgOf(ctx).db, input.asOf ?? today(ctx.clock)) };
  },
});

export const generalLedgerOp = defineOperation({
  name: 'reports.general-ledger',
  summary: 'Every account (or one) over a period: opening balance, lines with running balance, closing balance',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/general-ledger',
  description:
    `A page holds up to limit lines (default ${ledgerPageLimits.default}, at most ${ledgerPageLimits.max}); meta.nextCursor, sent back as cursor, asks for the next page, and is null on the last. ` +
    'An account whose lines run over two pages is on both, with the same balances and totals, its running balance carried on. The CLI prints every page.',
  query: { ...range, accountId: idOf('acc').optional(), ...cursorQuery(ledgerPageLimits.default, ledgerPageLimits.max) },
  cli: { group: 'report' },
  output: generalLedgerSchema,
  meta: cursorMetaSchema,
  async run(ctx, input) {
    checkRange(input.from, input.to);
    const { ledger, meta } = await generalLedger(orgOf(ctx).db, input);
    return { data: ledger, meta };
  },
});

export const vatReturnOp = defineOperation({
  name: 'reports.vat',
  summary: "The nine VAT boxes over any dates, by the organisation's VAT scheme and accounting basis",
  description:
    'Over the posted tax-coded entries dated in the range, filed or not; a return to file is vat show PERIOD. ' +
    '422 for a business not registered for VAT, and 422 incomplete_ledger while lines of the range are on the suspense account.',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/vat',
  query: range,
  cli: { group: 'report' },
  output: vatReturnSchema,
  async run(ctx, input) {
    checkRange(input.from, input.to);
    return { data: await vatReturn(orgOf(ctx).db, input.from, input.to) };
  },
});

export const dashboardOp = defineOperation({
  name: 'reports.dashboard',
  summary: 'The business today: bank, receivables, payables, the year to date against the year before, overdue invoices, bills due, VAT to set aside',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/dashboard',
  cli: { group: 'report' },
  output: dashboardSchema,
  async run(ctx) {
    return { data: await dashboard(orgOf(ctx).db, ctx.clock) };
  },
});

export const agedDebtorsOp = defineOperation({
  name: 'reports.aged-debtors',
  summary: 'What customers owe at a date (default today), by days overdue: current, 1-30, 31-60, 61-90, 90+',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/aged-debtors',
  query: { asOfDate: reportDate().optional() },
  cli: { group: 'report' },
  output: agedReportSchema,
  async run(ctx, input) {
    return { data: await agedReport(orgOf(ctx).db, 'sales', input.asOfDate ?? today(ctx.clock)) };
  },
});

export const agedCreditorsOp = defineOperation({
  name: 'reports.aged-creditors',
  summary: 'What is owed to suppliers at a date (default today), by days overdue: current, 1-30, 31-60, 61-90, 90+',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/aged-creditors',
  query: { asOfDate: reportDate().optional() },
  cli: { group: 'report' },
  output: agedReportSchema,
  async run(ctx, input) {
    return { data: await agedReport(orgOf(ctx).db, 'purchase', input.asOfDate ?? today(ctx.clock)) };
  },
});
