/**
 * The idempotency fingerprint is written without recursion (a body nested
 * deeper than the call stack is a 400, not a 500), and must give what the
 * recursive one gave, so that keys recorded before still replay: the same
 * digest for any JSON body, and for a request without a query.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import t from 'tap';
import { fingerprintOf } from '../../src/engine/integration/idempotency.js';

/** The recursive canonical form as it was, kept here as the reference. */
function recursive(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursive).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${recursive(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

t.test('the same digest as the recursive form for any JSON body', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (body) => {
      const before = createHash('sha256')
        .update(`POST /v1/contacts\n${recursive(body)}`)
        .digest('hex');
      return fingerprintOf('POST', '/v1/contacts', body) === before;
    }),
    { numRuns: 2000 },
  );
  t.pass('2,000 bodies');
});

t.test('the query counts, in any order; 20,000 levels of nesting are no trouble', async (t) => {
  const one = fingerprintOf('DELETE', '/v1/directors/dir_1', undefined, { resignedDate: '2026-11-20' });
  t.not(one, fingerprintOf('DELETE', '/v1/directors/dir_1', undefined, { resignedDate: '2026-06-15' }));
  t.not(one, fingerprintOf('DELETE', '/v1/directors/dir_1', undefined));
  t.equal(fingerprintOf('GET', '/v1/x', null, { a: '1', b: '2' }), fingerprintOf('GET', '/v1/x', null, { b: '2', a: '1' }));
  const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
  t.match(fingerprintOf('POST', '/v1/contacts', { notes: deep }), /^[0-9a-f]{64}$/);
});
