/** The VAT operations: the periods and their returns, filing one, and the filed returns. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf } from '../schema.js';
import { found } from '../lookup.js';
import { listPage, pageMetaSchema, pageQuery } from '../pagination.js';
import { postingOf } from '../ledger/posting.js';
import { fileReturn } from './filing.js';
import { filedView, listPeriods, returnOfPeriod, shownReturnSchema, vatPeriodSchema, vatReturnSchema } from './returns.js';

const periodParams = {
  period: z.string().describe('the month the VAT period ends, YYYY-MM (2026-03 for January to March 2026), or the quarter it ends in, YYYY-Qn (2026-Q1)'),
};

export const vatPeriodsOp = defineOperation({
  name: 'vat.periods',
  summary: 'The VAT periods from the first to the current one, newest first, with the state of each return',
  description:
    'Periods follow the settings vatStagger and vatPeriodMonth from vatRegistrationDate. ' +
    'A period is open until its last day has passed, then ended (ready to file), filed, or submitted to HMRC.',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/periods',
  output: z.strictObject({ periods: z.array(vatPeriodSchema) }),
  async run(ctx) {
    return { data: { periods: await listPeriods(orgOf(ctx).db, ctx.clock) } };
  },
});

export const vatPeriodReturnOp = defineOperation({
  name: 'vat.show',
  summary: "A VAT period's return: the filed figures, or the draft that filing now would give",
  description:
    'The draft takes every posted entry not in a filed return dated up to the period end (corrections to filed periods included), ' +
    'on the accounting basis now set. While an earlier period holding VAT entries is not filed, the draft is the period alone ' +
    'and fileFirst names the earlier period, whose return is filed first. 422 incomplete_ledger while lines of the period are on suspense (9999).',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/periods/{period}',
  params: periodParams,
  output: shownReturnSchema,
  async run(ctx, input) {
    return { data: await returnOfPeriod(orgOf(ctx).db, ctx.clock, input.period) };
  },
});

export const fileVatReturnOp = defineOperation({
  name: 'vat.file',
  summary: "File a VAT period's return: freeze its figures, post the settlement journal and lock its VAT lines",
  description:
    'Only after the period has ended (422 vat_period_not_ended) and in order (422 vat_period_out_of_order); once (409 already_filed). ' +
    "Posts a journal dated the period's last day moving the return's VAT to 2202 VAT Liability (flat rate: the surplus to 4300). " +
    'The transactions it counted can no longer be changed or removed (422 vat_return_filed). Raises vat.submitted.',
  access: 'transactions:write',
  method: 'POST',
  path: '/vat/periods/{period}/file',
  params: periodParams,
  status: 201,
  output: vatReturnSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => fileReturn(trx, postingOf(ctx), input.period)) };
  },
});

export const listVatReturnsOp = defineOperation({
  name: 'vat.returns',
  summary: 'The filed VAT returns, newest period first',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/returns',
  query: pageQuery(),
  output: z.strictObject({ returns: z.array(vatReturnSchema) }),
  meta: pageMetaSchema,
  async run(ctx, input) {
    const db = orgOf(ctx).db;
    const page = await listPage(db.selectFrom('vat_returns'), (q) => q.selectAll().orderBy('period_end', 'desc').orderBy('id'), input);
    return { data: { returns: page.rows.map(filedView) }, meta: page.meta };
  },
});

export const getVatReturnOp = defineOperation({
  name: 'vat.return',
  summary: 'One filed VAT return',
  access: 'reports:read',
  method: 'GET',
  path: '/vat/returns/{id}',
  params: { id: idOf('vatr') },
  output: vatReturnSchema,
  async run(ctx, input) {
    const row = await found(orgOf(ctx).db.selectFrom('vat_returns').selectAll().where('id', '=', input.id).executeTakeFirst(), 'VAT return', input.id);
    return { data: filedView(row) };
  },
});
