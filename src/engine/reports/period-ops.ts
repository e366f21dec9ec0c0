/**
 * The operations of financial periods: list, show one, close one (here, above the ledger and VAT, as closing asks
 * both what is left to do: unfinished.ts).
 */
import { z } from 'zod';
import { defineOperation, orgOf } from '../operation.js';
import { idOf } from '../schema.js';
import { closablePeriod, closePeriod, findPeriod, listPeriods, periodSchema } from '../ledger/periods.js';
import { refuseUnfinished } from './unfinished.js';

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
    return {
      data: await orgOf(ctx).write(async (trx) => {
        const period = await closablePeriod(trx, ctx.clock, input.id);
        await refuseUnfinished(trx, ctx.clock, period);
        return closePeriod(trx, ctx.clock, period);
      }),
    };
  },
});
