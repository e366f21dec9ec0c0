/**
 * Hostile input to every administrator route, sent with an administrator's
 * session (the general hostile-input test is refused at the 403): wrong
 * types field by field, huge strings, non-object bodies, truncated JSON,
 * junk query values and malformed path ids. Every answer is below 500 with
 * the error envelope, and every refusal appends no audit row and leaves the
 * platform's users, organisations and keys as they were.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { newBooks, rowsInOrder, serveBooks, type Books } from '../helpers/index.js';
import { operations } from '../../src/engine/registry.js';
import { pathParams, type Operation } from '../../src/engine/operation.js';
import { adminAndUser } from './support.js';

const watched = ['users', 'organisations', 'api_keys', 'sessions', 'audit_log', 'bug_reports', 'platform_settings'];

/** A hash of the rows of the watched platform tables, but the sessions' expiry (the administrator's own session is not changed by a refusal). */
async function platformHash(books: Books): Promise<string> {
  const hash = createHash('sha256');
  for (const table of watched) hash.update(JSON.stringify(await rowsInOrder(books.store.platform.db, table)));
  return hash.digest('hex');
}

const malformedIds = ['0', '-1', '1e3', 'x', '%00', '..%2F..', '99999999999999999999', 'bug_', "1' or '1'='1"];
const junkValues = ['', '%00', 'x'.repeat(5000), '-1', '1e309', 'NaN', '[]', '{}', 'true'];

/** Bodies of the wrong shape: for each field of the body, values of every wrong type; then whole bodies that are no object. */
function nastyBodies(op: Operation): string[] {
  if (!op.schemas.body) return [];
  const fields = Object.keys(op.schemas.body.shape);
  const values: unknown[] = [null, 0, -1, 1.5, 1e308, true, 'x'.repeat(100_000), [], {}, [1, 2], { __proto__: { admin: true } }];
  const out = ['[]', '"text"', '42', 'null', '{"zzUnknown": 1}', '{"a":', ''];
  for (const field of fields) for (const v of values) out.push(JSON.stringify({ [field]: v }));
  return out;
}

t.test('hostile input to every administrator route: below 500, an error envelope, and a refusal changes nothing', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const api = await serveBooks(t, books);
  const { admin, userId } = await adminAndUser(t, api, books);
  // The plain user is deleted first, so that an id that parses names either the administrator (refused: their own account) or no one.
  t.equal((await api.request('DELETE', `/v1/admin/users/${userId}`, { key: admin })).status, 200);
  const adminOps = operations.filter((op) => op.access === 'admin');
  const failures: string[] = [];
  let sent = 0;
  const check = async (op: Operation, path: string, raw?: string) => {
    const before = await platformHash(books);
    const r = await api.request(op.method, path, { key: admin, ...(raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } }) });
    sent++;
    const what = `${op.method} ${path.slice(0, 120)} ${raw === undefined ? '' : raw.slice(0, 80)} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
    if (r.status >= 500) failures.push(`5xx: ${what}`);
    if (r.status >= 400) {
      if (r.body?.success !== false || typeof r.body?.error?.code !== 'string' || typeof r.body?.error?.message !== 'string')
        failures.push(`no envelope: ${what}`);
      else if (/ {4}at |\.ts:|\.js:/.test(r.body.error.message as string)) failures.push(`a stack trace: ${what}`);
      if ((await platformHash(books)) !== before) failures.push(`a refusal changed the platform: ${what}`);
    }
  };
  const filled = (op: Operation, id: string) => `/v1${pathParams(op.path).reduce((p, name) => p.replace(`{${name}}`, encodeURIComponent(id)), op.path)}`;
  for (const op of adminOps) {
    const wellFormed = op.path.includes('/users/')
      ? '1'
      : op.path.includes('/bug-reports/')
        ? 'bug_0000000000000000000000000x'
        : op.path.includes('/settings/')
          ? 'nothing_here'
          : '00000000-0000-4000-8000-000000000000';
    for (const body of nastyBodies(op)) await check(op, filled(op, wellFormed), body);
    for (const key of Object.keys(op.schemas.query.shape))
      for (const v of junkValues) await check(op, `${filled(op, wellFormed)}?${key}=${encodeURIComponent(v)}`);
    if (pathParams(op.path).length > 0) for (const id of malformedIds) await check(op, filled(op, id), op.schemas.body ? '{}' : undefined);
  }
  for (const f of failures.slice(0, 30)) t.fail(f);
  t.equal(failures.length, 0, `${sent} hostile requests over ${adminOps.length} administrator routes`);
});
