/** Small assertions shared by the HTTP tests (not a test file itself). */
import type { Test } from 'tap';
import type { Api, Reply } from '../helpers/index.js';

/** The 17 scopes of the spec, in the order of its table. */
export const allScopes = [
  'accounts:read',
  'accounts:write',
  'contacts:read',
  'contacts:write',
  'invoices:read',
  'invoices:write',
  'quotes:read',
  'quotes:write',
  'transactions:read',
  'transactions:write',
  'reports:read',
  'bank-imports:read',
  'bank-imports:write',
  'directors:read',
  'directors:write',
  'dividends:read',
  'dividends:write',
];

/**
 * Check an error reply: status, the error envelope, the code and, when
 * `field` is given, the field (null: the field member must be absent).
 */
export function expectError(t: Test, reply: Reply, status: number, code: string, options: { field?: string | null; message?: RegExp | string } = {}): void {
  t.equal(reply.status, status, `status ${status}`);
  t.equal(reply.body?.success, false, 'success is false');
  t.equal(reply.body?.error?.code, code, `code ${code}`);
  t.type(reply.body?.error?.message, 'string', 'message is a string');
  t.not(reply.body?.error?.message, '', 'message is not empty');
  t.notOk('data' in (reply.body ?? {}), 'no data member on an error');
  if (options.field === null) t.notOk('field' in (reply.body?.error ?? {}), 'no field member');
  else if (options.field !== undefined) t.equal(reply.body?.error?.field, options.field, `field ${options.field}`);
  if (options.message !== undefined) t.match(reply.body?.error?.message, options.message, 'message');
}

/** Create a key of the caller's mode through POST /api-keys and return its full value and id. */
export async function createKey(t: Test, api: Api, body: { name?: string; scopes?: string[] }, key?: string): Promise<{ key: string; id: string }> {
  const r = await api.request('POST', '/v1/api-keys', { body, ...(key === undefined ? {} : { key }) });
  t.equal(r.status, 201, 'key created');
  return { key: r.body.data.key as string, id: r.body.data.id as string };
}
