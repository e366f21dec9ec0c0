/**
 * Property (issue 3): random balanced and unbalanced transactions posted
 * through POST /v1/transactions on a real server. The answer is the one the
 * model predicts (201, 400 for bad lines, 422 for a date in the closed FY
 * 2025/26); a refused request changes no row of any table; an accepted one
 * adds exactly 1 transaction, its lines and its events; the posted lines
 * always sum to 0, and so does the trial balance read over HTTP.
 */
import assert from 'node:assert/strict';
import t from 'tap';
import fc from 'fast-check';
import {
  activeAccounts,
  anyDate,
  buildBody,
  chartCodes,
  checkStoredLedger,
  checkTrialBalance,
  expectedCreateStatus,
  openBench,
  openLedger,
  plus,
  postedNets,
  rowCounts,
  seed,
  show,
  soundLedger,
  txnSpec,
} from './support.js';

const numRuns = 150;

t.test('posting random transactions keeps the ledger balanced and a refusal leaves no row', async (t) => {
  const bench = await openBench(t);
  let l = await openLedger(bench);
  const chart = await chartCodes(l);
  const tally = { 201: 0, 400: 0, 422: 0 };

  const cases = txnSpec({ accounts: chart.journal.filter((c) => c !== chart.inactive), flaws: true, minLines: 1, maxLines: 8, dates: anyDate });

  await fc.assert(
    fc.asyncProperty(cases, async (spec) => {
      l = await soundLedger(l, () => openLedger(bench));
      const active = await activeAccounts(l);
      assert.ok(!active.has(l.inactive));
      const body = buildBody(spec, l);
      const expected = expectedCreateStatus(body, active);
      const before = await rowCounts(l);
      const nets = await postedNets(l);

      const r = await l.api.request('POST', '/v1/transactions', { body });
      assert.equal(r.status, expected.status, `expected ${expected.status} (${expected.why}), got ${show(r)}`);
      tally[expected.status]++;

      const after = await rowCounts(l);
      if (r.status === 201) {
        const posted = (body.status ?? 'posted') === 'posted';
        assert.deepEqual(after, plus(before, { transactions: 1, lines: body.lines.length, outbox: posted ? 2 : 1 }), 'rows added by an accepted transaction');
        const data = r.body.data as { id: string; status: string; lines: { accountId: string; amount: number }[] };
        assert.equal(data.status, posted ? 'posted' : 'draft');
        assert.deepEqual(
          data.lines.map((x) => ({ accountId: x.accountId, amount: x.amount })),
          body.lines,
          'the lines as sent, in order',
        );
        if (posted) for (const line of body.lines) nets.set(line.accountId, (nets.get(line.accountId) ?? 0) + (line.amount as number));
      } else {
        assert.equal(r.body.success, false, show(r));
        const codes = r.status === 400 ? ['validation_error', 'invalid_type', 'invalid_id'] : ['unprocessable_entity'];
        assert.ok(codes.includes(r.body.error.code), `error code for ${expected.why}: ${show(r)}`);
        assert.deepEqual(after, before, `a refused request (${expected.why}) leaves no row behind`);
      }

      await checkStoredLedger(l);
      await checkTrialBalance(l, nets);
    }),
    { seed, numRuns },
  );

  t.pass(`${numRuns} cases hold: ${tally[201]} accepted, ${tally[400]} refused 400, ${tally[422]} refused 422 (closed period)`);
  // A property whose cases are almost all refused (or all accepted) tests little.
  t.ok(tally[201] >= numRuns / 5, 'at least a fifth of the cases were accepted');
  t.ok(tally[400] >= numRuns / 5, 'at least a fifth were refused for their lines');
  t.ok(tally[422] >= 5, 'some were refused for the closed period');
});
