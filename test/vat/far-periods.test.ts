/**
 * Period keys the books cannot hold: a month that is not one (2026-13,
 * 2026-00) or a period ending after 2999, the last year acct dates anything
 * (9999-12 would be due in the year 10000), is 404 not_found naming the key,
 * never a 500; nothing is filed. Today is 2026-07-20.
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { vatBooks } from './support.js';

const clock = '2026-07-20T10:00:00Z';

for (const stagger of ['quarterly', 'monthly', 'annual'] as const) {
  t.test(`${stagger}: impossible and far-off periods are 404 naming the key`, async (t) => {
    const v = await vatBooks(t, { vatScheme: 'standard', vatRegistrationDate: '2026-01-01', vatStagger: stagger, vatPeriodMonth: 12 }, clock);
    for (const key of ['9999-12', '9999-Q4', '3000-12', '3000-Q4', '2026-13', '2026-00', '0000-12']) {
      for (const [method, path] of [
        ['GET', `/v1/vat/periods/${key}`],
        ['POST', `/v1/vat/periods/${key}/file`],
      ] as const) {
        const r = await v.api.request(method, path);
        t.equal(r.status, 404, `${method} ${path}: ${JSON.stringify(r.body.error)}`);
        t.equal(r.body.error?.code, 'not_found', path);
        t.match(r.body.error?.message, key, path);
      }
    }
    // 2999-12 is the last period the books can hold: its return is due in 3000, and it is shown (a draft with nothing in it).
    const last = await v.api.request('GET', '/v1/vat/periods/2999-12');
    t.equal(last.status, 200, JSON.stringify(last.body.error));
    t.equal(last.body.data?.period.to, '2999-12-31');
    t.equal((await v.api.request('GET', '/v1/vat/returns')).body.meta.total, 0, 'nothing filed by the refusals');
    const cli = await runCliInProcess(['--data', v.books.dataDir, 'vat', 'show', '9999-12']);
    t.equal(cli.status, 3, cli.stderr);
    t.match(cli.stderr, 'not_found: no VAT period ends in 9999-12');
  });
}
