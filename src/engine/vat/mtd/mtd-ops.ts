/**
 * Reading from HMRC's VAT (MTD) API: the VAT obligations (periods and
 * their period keys, open or fulfilled), a return HMRC holds, and the
 * liabilities and payments on the VAT account. Amounts come back in
 * pence, as everywhere in acct. Each call is made outside any transaction.
 */
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { defineOperation, orgOf } from '../../operation.js';
import { day, instant } from '../../output.js';
import { checkRange, isoDate, pence } from '../../schema.js';
import { fetchLiabilities, fetchObligations, fetchPayments, fetchReturn } from './vat-api.js';
import { penceOf } from './hmrc-return.js';
import { filedByPeriod, submissionOf } from './submitted-returns.js';
import { vrnOf } from './vrn.js';

const statuses = { open: 'O', fulfilled: 'F' } as const;

const obligationView = z.strictObject({
  periodKey: z.string(),
  start: day(),
  end: day(),
  due: day(),
  status: z.enum(['open', 'fulfilled']),
  received: day().nullable(),
  returnId: z.string().nullable(),
  submittedAt: instant().nullable(),
});

export const obligationsOp = defineOperation({
  name: 'vat.obligations',
  summary: "HMRC's VAT obligations: each period, its period key, due date and status, with the filed return for its dates",
  description:
    'from and to (at most 366 days apart) are required unless status is open. returnId is the filed return whose period has the ' +
    'same dates; submittedAt is when acct sent it to HMRC.',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/obligations',
  query: { from: isoDate().optional(), to: isoDate().optional(), status: z.enum(['open', 'fulfilled']).optional() },
  output: z.strictObject({ obligations: z.array(obligationView) }),
  async run(ctx, input) {
    if ((input.from === undefined) !== (input.to === undefined)) {
      throw new AppError('validation_error', 'from and to go together', input.from === undefined ? 'from' : 'to');
    }
    if (input.from === undefined && input.status !== 'open') throw new AppError('validation_error', 'from and to are required unless status is open', 'from');
    checkRange(input.from, input.to);
    const books = orgOf(ctx);
    const vrn = await vrnOf(books.db);
    const list = await fetchObligations(ctx, books, vrn, { from: input.from, to: input.to, status: input.status && statuses[input.status] });
    const filed = await filedByPeriod(books.db);
    const obligations = list.map((o) => {
      const row = filed.get(`${o.start}/${o.end}`);
      return {
        periodKey: o.periodKey,
        start: o.start,
        end: o.end,
        due: o.due,
        status: o.status === 'O' ? ('open' as const) : ('fulfilled' as const),
        received: o.received ?? null,
        returnId: row?.id ?? null,
        submittedAt: row?.submitted_at ?? null,
      };
    });
    return { data: { obligations } };
  },
});

const periodKey = z
  .string()
  .regex(/^[#0-9A-Z]{4}$/, 'must be an HMRC period key: four characters, 0-9, A-Z or #, as in 18A1')
  .meta({ examples: ['18A1'] });

export const hmrcReturnOp = defineOperation({
  name: 'vat.hmrc-return',
  summary: 'The VAT return HMRC holds for a period key: its nine boxes',
  description: 'A # in a period key is sent as %23 in the path. returnId is the filed return acct submitted with that period key.',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/hmrc-returns/{periodKey}',
  params: { periodKey },
  output: z.strictObject({
    periodKey: z.string(),
    vatDueSales: pence(),
    vatDueAcquisitions: pence(),
    totalVatDue: pence(),
    vatReclaimedCurrPeriod: pence(),
    netVatDue: pence(),
    totalValueSalesExVAT: pence(),
    totalValuePurchasesExVAT: pence(),
    totalValueGoodsSuppliedExVAT: pence(),
    totalAcquisitionsExVAT: pence(),
    returnId: z.string().nullable(),
  }),
  async run(ctx, input) {
    const books = orgOf(ctx);
    const held = await fetchReturn(ctx, books, await vrnOf(books.db), input.periodKey);
    if (!held) throw new AppError('not_found', `HMRC holds no VAT return for period key ${input.periodKey}`);
    const ours = [...(await filedByPeriod(books.db)).values()].find((r) => submissionOf(r)?.periodKey === held.periodKey);
    return {
      data: {
        periodKey: held.periodKey,
        vatDueSales: penceOf(held.vatDueSales),
        vatDueAcquisitions: penceOf(held.vatDueAcquisitions),
        totalVatDue: penceOf(held.totalVatDue),
        vatReclaimedCurrPeriod: penceOf(held.vatReclaimedCurrPeriod),
        netVatDue: penceOf(held.netVatDue),
        totalValueSalesExVAT: penceOf(held.totalValueSalesExVAT),
        totalValuePurchasesExVAT: penceOf(held.totalValuePurchasesExVAT),
        totalValueGoodsSuppliedExVAT: penceOf(held.totalValueGoodsSuppliedExVAT),
        totalAcquisitionsExVAT: penceOf(held.totalAcquisitionsExVAT),
        returnId: ours?.id ?? null,
      },
    };
  },
});

const range = { from: isoDate(), to: isoDate() };

export const liabilitiesOp = defineOperation({
  name: 'vat.liabilities',
  summary: 'What HMRC says is owed on the VAT account: each charge, its period, original and outstanding amounts and due date',
  description: 'from and to at most 365 days apart, to not after today (HMRC’s limits).',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/liabilities',
  query: range,
  output: z.strictObject({
    liabilities: z.array(
      z.strictObject({
        type: z.string(),
        periodFrom: day().nullable(),
        periodTo: day().nullable(),
        originalAmount: pence(),
        outstandingAmount: pence().nullable(),
        due: day().nullable(),
      }),
    ),
  }),
  async run(ctx, input) {
    checkRange(input.from, input.to);
    const books = orgOf(ctx);
    const list = await fetchLiabilities(ctx, books, await vrnOf(books.db), input.from, input.to);
    const liabilities = list.map((l) => ({
      type: l.type,
      periodFrom: l.taxPeriod?.from ?? null,
      periodTo: l.taxPeriod?.to ?? null,
      originalAmount: penceOf(l.originalAmount),
      outstandingAmount: l.outstandingAmount === undefined ? null : penceOf(l.outstandingAmount),
      due: l.due ?? null,
    }));
    return { data: { liabilities } };
  },
});

export const paymentsOp = defineOperation({
  name: 'vat.payments',
  summary: 'The payments HMRC has received on the VAT account: amount and date received',
  description: 'from and to at most 365 days apart, to not after today (HMRC’s limits).',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/payments',
  query: range,
  output: z.strictObject({ payments: z.array(z.strictObject({ amount: pence(), received: day().nullable() })) }),
  async run(ctx, input) {
    checkRange(input.from, input.to);
    const books = orgOf(ctx);
    const list = await fetchPayments(ctx, books, await vrnOf(books.db), input.from, input.to);
    return { data: { payments: list.map((p) => ({ amount: penceOf(p.amount), received: p.received ?? null })) } };
  },
});
