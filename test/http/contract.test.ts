/** The contract check the test suite runs on every HTTP reply: it must catch a handler drifting from its declared output. */
import t from 'tap';
import { z } from 'zod';
import { defineOperation } from '../../src/engine/operation.js';
import { pageMetaSchema } from '../../src/engine/pagination.js';
import { pence } from '../../src/engine/schema.js';
import { contractIssues, operationAt } from '../../src/http/contract.js';
import { operations } from '../../src/engine/registry.js';

const op = defineOperation({
  name: 'things.list',
  summary: 'test',
  access: 'public',
  method: 'GET',
  path: '/things',
  output: z.array(z.strictObject({ id: z.string(), total: pence() })),
  meta: pageMetaSchema,
  async run() {
    return { data: [], meta: { total: 0, page: 1, limit: 20, hasMore: false } };
  },
});
const meta = { total: 1, page: 1, limit: 20, hasMore: false };

t.test('a reply as declared passes', async (t) => {
  t.same(contractIssues(op, 200, { success: true, data: [{ id: 'a', total: 12000 }], meta }), []);
});

t.test('drift is caught: a field the schema lacks, a missing field, a wrong type, a missing meta, another status', async (t) => {
  t.match(contractIssues(op, 200, { success: true, data: [{ id: 'a', total: 12000, extra: 1 }], meta }), [/data\[0\].*extra/]);
  t.match(contractIssues(op, 200, { success: true, data: [{ id: 'a' }], meta }), [/data\[0\]\.total/]);
  t.match(contractIssues(op, 200, { success: true, data: [{ id: 'a', total: 120.5 }], meta }), [/data\[0\]\.total/]);
  t.match(contractIssues(op, 200, { success: true, data: [] }), [/meta/]);
  t.match(contractIssues(op, 201, { success: true, data: [], meta }), [/status 201, declared 200/]);
  t.match(contractIssues(op, 200, { success: true, data: [], meta, extra: true }), [/unexpected members extra/]);
});

t.test('errors must have the envelope and a code of the error table', async (t) => {
  t.same(contractIssues(op, 404, { success: false, error: { code: 'not_found', message: 'no such thing' } }), []);
  t.not(contractIssues(op, 404, { success: false, error: { code: 'no_such_code', message: 'x' } }).length, 0);
  t.not(contractIssues(op, 400, { success: false, error: { code: 'validation_error' } }).length, 0);
});

t.test('a request is matched to its operation as the router matches it', async (t) => {
  t.equal(operationAt(operations, 'GET', '/v1/api-keys/scopes?x=1')?.name, 'keys.scopes');
  t.equal(operationAt(operations, 'POST', '/api/v1/invoices/inv_1/send')?.name, 'invoices.send');
  t.equal(operationAt(operations, 'GET', '/v2/health'), undefined);
});
