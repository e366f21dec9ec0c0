/** The operations of financial periods: list, show one, close one. */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf } from '../schema.js';
import { closePeriod, findPeriod, listPeriods, periodSchema } from './periods.js';

const periodParams = { id: idOf('period') };

export const listPeriodsOp = defineOperation({
  name: 'periods.list',
  summary: 'List the financial periods (fiscal years), newest first',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/periods',
  output: z.strictObject({ periods: z.array(periodSchema) }),
  async run(ctx) {
    return { data: { periods: await listPeriods(orgOf(ctx).db, ctx.clock) } };
  },
});

export const getPeriodOp = defineOperation({
  name: 'periods.get',
  summary: 'Show one financial period',
  access: 'reports:read',
  method: 'GET',
  path: '/reports/periods/{id}',
  params: periodParams,
  output: periodSchema,
  async run(ctx, input) {
    return { data: await findPeriod(orgOf(ctx).db, ctx.clock, input.id) };
  },
});

export const closePeriodOp = defineOperation({
  name: 'periods.close',
  summary: 'Close a financial period that has ended; it becomes read-only, irreversibly',
  access: 'all-scopes',
  method: 'POST',
  path: '/reports/periods/{id}/close',
  params: periodParams,
  body: {},
  output: periodSchema,
  async run(ctx, input) {
    return { data: await orgOf(ctx).write((trx) => closePeriod(trx, ctx.clock, input.id)) };
  },
});
