/** GET /health: no key needed; 503 when the platform database does not answer. */
import { sql } from 'kysely';
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { version } from '../../version.js';
import { instant } from '../output.js';

const serviceStatus = z.enum(['operational', 'degraded']);
const service = z.strictObject({ status: serviceStatus, latency: z.number().describe('milliseconds') });

export const health = defineOperation({
  name: 'health',
  summary: 'Check that the service and its database answer',
  access: 'public',
  method: 'GET',
  path: '/health',
  output: z.strictObject({
    status: z.literal('operational'),
    version: z.string(),
    timestamp: instant(),
    services: z.strictObject({ api: service, database: service }),
  }),
  async run(ctx) {
    const started = performance.now();
    try {
      await sql`select 1`.execute(ctx.platform.db);
    } catch (e) {
      throw new AppError('service_unavailable', 'the database does not answer', undefined, { cause: e });
    }
    const latency = Math.round((performance.now() - started) * 1000) / 1000;
    return {
      data: {
        status: 'operational' as const,
        version,
        timestamp: timestamp(ctx.clock),
        services: {
          api: { status: 'operational' as const, latency: 0 },
          database: { status: latency > 1000 ? ('degraded' as const) : ('operational' as const), latency },
        },
      },
    };
  },
});
