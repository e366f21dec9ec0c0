/**
 * The contract check: does a response body match what its operation
 * declares? The test suite runs it on every reply of the HTTP server, so
 * a handler and its declared output (and so the OpenAPI document) cannot
 * drift apart.
 */
import { z } from 'zod';
import { errorTable } from '../engine/errors.js';
import { formatPath } from '../engine/schema.js';
import type { Operation } from '../engine/operation.js';
import { prefixes, routeOrder } from './routes.js';

const errorEnvelope = z.strictObject({
  success: z.literal(false),
  error: z.strictObject({
    code: z.enum(Object.keys(errorTable) as [string, ...string[]]),
    message: z.string().min(1),
    field: z.string().optional(),
  }),
});

function issuesOf(error: z.ZodError, where: string): string[] {
  return error.issues.map((i) => {
    const path = i.path.length > 0 ? formatPath(i.path) : '';
    return `${where}${path === '' || path.startsWith('[') ? path : `.${path}`}: ${i.message}`;
  });
}

/** What is wrong with a JSON reply of `op` (nothing: an empty list). */
export function contractIssues(op: Operation, status: number, body: unknown): string[] {
  if (status >= 400) {
    const parsed = errorEnvelope.safeParse(body);
    return parsed.success ? [] : issuesOf(parsed.error, 'error envelope');
  }
  if (status !== op.status) return [`status ${status}, declared ${op.status}`];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return ['the body is not a JSON object'];
  const { success, data, meta, ...rest } = body as Record<string, unknown>;
  const issues: string[] = [];
  if (success !== true) issues.push('success is not true');
  if (Object.keys(rest).length > 0) issues.push(`unexpected members ${Object.keys(rest).join(', ')}`);
  const { output, meta: metaSchema } = op.schemas;
  const parsed = output.safeParse(data);
  if (!parsed.success) issues.push(...issuesOf(parsed.error, 'data'));
  if (metaSchema === null) {
    if (meta !== undefined) issues.push('meta sent but not declared');
  } else {
    const parsed = metaSchema.safeParse(meta);
    if (!parsed.success) issues.push(...issuesOf(parsed.error, 'meta'));
  }
  return issues;
}

const templateOf = (path: string): RegExp => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

/** The operation a request reached, as the router finds it (static routes before parameterised ones). */
export function operationAt(operations: readonly Operation[], method: string, url: string): Operation | undefined {
  const pathname = new URL(url, 'http://localhost').pathname;
  const prefix = prefixes.find((p) => pathname.startsWith(`${p}/`));
  if (!prefix) return undefined;
  const path = pathname.slice(prefix.length);
  const candidates = operations.filter((op) => op.method === method.toUpperCase() && templateOf(op.path).test(path));
  return candidates.sort(routeOrder)[0];
}
