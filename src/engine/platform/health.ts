/**
 * GET /health: no key needed. Each service is judged operational, degraded
 * or in outage; the database by a real query with a time limit. Any outage
 * makes the whole answer a 503 (service_unavailable) naming the services
 * down, so that a load balancer or monitor needs only the status code.
 */
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AppError } from '../errors.js';
import { timestamp } from '../clock.js';
import { version } from '../../version.js';
import { instant } from '../output.js';
import type { PlatformDb } from '../../store/tables.js';

/** A database answer slower than this is degraded. */
export const degradedAfterMs = 1000;
/** A database that has not answered in this long is in outage. */
export const databaseTimeoutMs = 3000;

type ServiceStatus = 'operational' | 'degraded' | 'outage';

export interface ServiceCheck {
  readonly status: ServiceStatus;
  readonly latency: number;
  readonly message?: string;
  /** What failed, kept for the server's log. */
  readonly cause?: unknown;
}

const service = z.strictObject({
  status: z.enum(['operational', 'degraded']),
  latency: z.number().describe('milliseconds'),
  message: z.string().optional().describe('why the service is degraded'),
});

const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/** `select 1` against the platform database, given up after databaseTimeoutMs. */
export async function checkDatabase(db: Kysely<PlatformDb>): Promise<ServiceCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), databaseTimeoutMs);
  });
  try {
    const answer = await Promise.race([sql`select 1`.execute(db), timeout]);
    if (answer === 'timeout') return { status: 'outage', latency: databaseTimeoutMs, message: `no answer within ${databaseTimeoutMs} ms` };
  } catch (e) {
    return { status: 'outage', latency: roundMs(performance.now() - started), message: `the query failed: ${(e as Error).message}`, cause: e };
  } finally {
    clearTimeout(timer);
  }
  const latency = roundMs(performance.now() - started);
  return latency > degradedAfterMs
    ? { status: 'degraded', latency, message: `answered in more than ${degradedAfterMs} ms` }
    : { status: 'operational', latency };
}

/** The worst of the services' statuses. */
const rolledUp = (checks: readonly ServiceCheck[]): ServiceStatus =>
  checks.some((c) => c.status === 'outage') ? 'outage' : checks.some((c) => c.status === 'degraded') ? 'degraded' : 'operational';

export const health = defineOperation({
  name: 'health',
  summary: 'Check that the service and its database answer',
  description: `The database is asked select 1: degraded when it takes more than ${degradedAfterMs} ms, in outage when it fails or has not answered in ${databaseTimeoutMs} ms. Any service in outage makes the answer 503 service_unavailable, its message naming the services down.`,
  access: 'public',
  method: 'GET',
  path: '/health',
  output: z.strictObject({
    status: z.enum(['operational', 'degraded']).describe('the worst of the services'),
    version: z.string(),
    timestamp: instant(),
    services: z.strictObject({ api: service, database: service }),
  }),
  async run(ctx) {
    const api: ServiceCheck = { status: 'operational', latency: 0 };
    const database = await checkDatabase(ctx.platform.db);
    const services = { api, database };
    const status = rolledUp([api, database]);
    // 'outage' is answered as an error below, so the body's status is operational or degraded.
    if (status === 'outage') {
      const down = Object.entries(services).filter(([, c]) => c.status === 'outage');
      const message = `outage: ${down.map(([name, c]) => `${name} (${c.message ?? 'down'})`).join(', ')}`;
      throw new AppError('service_unavailable', message, undefined, { cause: down.find(([, c]) => c.cause !== undefined)?.[1].cause ?? message });
    }
    return { data: { status, version, timestamp: timestamp(ctx.clock), services: { api: shown(api), database: shown(database) } } };
  },
});

/** A service as the answer shows it (one in outage never reaches it). */
function shown(c: ServiceCheck): z.output<typeof service> {
  const status = c.status === 'degraded' ? 'degraded' : 'operational';
  return c.message === undefined ? { status, latency: c.latency } : { status, latency: c.latency, message: c.message };
}
