/**
 * Property (issue 3): random sequences of operations on existing
 * transactions over HTTP — PATCH status to draft or posted, PATCH reconcile
 * true or false, DELETE, PUT with new balanced or unbalanced lines, and
 * switching an account used by the lines off and on. Each run makes a few
 * fresh transactions and also aims at three made in FY 2025/26 before it was
 * closed (one of them reconciled) and at an id that does not exist.
 *
 * A model of each transaction (status, reconciled, date, lines) predicts
 * whether each operation is accepted. Never a 5xx; the answer (2xx or 4xx)
 * is the predicted one; a refused operation changes no row of any table and
 * leaves the transaction as it was; an accepted one changes exactly the rows
 * and the transaction the model says; the posted lines always sum to 0, and
 * at the end of each run so does the trial balance read over HTTP.
 */
import assert from 'node:assert/strict';
import t from 'tap';
import fc from 'fast-check';
import {
  activeAccounts,
  anyDate,
  buildBody,
  buildLines,
  chartCodes,
  checkStoredLedger,
  checkTrialBalance,
  isClosed,
  linesProblem,
  openDate,
  openBench,
  openLedger,
  plus,
  postedNets,
  rowCounts,
  seed,
  show,
  storedLedgerProblems,
  txnSpec,
  type Bench,
  type Ledger,
  type TxnSpec,
} from './support.js';

const numRuns = 80;

interface TxnState {
  status: 'draft' | 'posted';
  reconciled: boolean;
  date: string;
  lines: { accountId: string; amount: number }[];
}

type Op =
  | { kind: 'status'; target: Target; status: 'draft' | 'posted' }
  | { kind: 'reconcile'; target: Target; reconciled: boolean }
  | { kind: 'delete'; target: Target }
  | { kind: 'put'; target: Target; spec: TxnSpec; withLines: boolean; withDate: boolean }
  | { kind: 'account'; active: boolean };

/** Which transaction an operation aims at: one made in this run, or one of the closed year's or the missing id. */
interface Target {
  fresh: boolean;
  n: number;
}

type Change = Parameters<typeof plus>[1];

/** The model's verdict on one operation: refused, or accepted with the rows it adds and the transaction after it. */
type Verdict = { ok: false; why: string } | { ok: true; why: string; change: Change; next: TxnState | null };

const refuse = (why: string): Verdict => ({ ok: false, why });

/** The rules of the spec's transaction state table and of posting, as the model reads them. */
function verdict(op: Exclude<Op, { kind: 'account' }>, put: PutBody | null, s: TxnState | null, active: ReadonlySet<string>): Verdict {
  if (op.kind === 'put' && put?.lines !== undefined) {
    // A body whose lines break the rules is refused whether or not the transaction exists.
    const problem = linesProblem(put.lines, active);
    if (problem) return refuse(problem);
  }
  if (!s) return refuse('no such transaction');
  const open = !isClosed(s.date);
  switch (op.kind) {
    case 'status': {
      if (op.status === s.status) return { ok: true, why: 'already so', change: {}, next: s };
      if (!open) return refuse('date in the closed period');
      if (op.status === 'draft') {
        if (s.reconciled) return refuse('reconciled');
        return { ok: true, why: 'back to draft', change: {}, next: { ...s, status: 'draft' } };
      }
      const problem = linesProblem(s.lines, active);
      if (problem) return refuse(problem);
      return { ok: true, why: 'posted', change: { outbox: 1 }, next: { ...s, status: 'posted' } };
    }
    case 'reconcile':
      if (s.status !== 'posted') return refuse('a draft');
      if (!open) return refuse('date in the closed period');
      return { ok: true, why: 'reconcile', change: {}, next: { ...s, reconciled: op.reconciled } };
    case 'delete':
      if (s.reconciled) return refuse('reconciled');
      if (s.status !== 'draft') return refuse('posted');
      if (!open) return refuse('date in the closed period');
      return { ok: true, why: 'deleted', change: { transactions: -1, lines: -s.lines.length }, next: null };
    case 'put': {
      if (s.reconciled) return refuse('reconciled');
      if (s.status !== 'draft') return refuse('posted');
      if (!open) return refuse('date in the closed period');
      const date = put?.date ?? s.date;
      if (isClosed(date)) return refuse('new date in the closed period');
      const lines = (put?.lines as TxnState['lines'] | undefined) ?? s.lines;
      const problem = linesProblem(lines, active);
      if (problem) return refuse(problem);
      const status = put?.status ?? 'draft';
      return {
        ok: true,
        why: `replaced (${status})`,
        change: { lines: lines.length - s.lines.length, outbox: status === 'posted' ? 1 : 0 },
        next: { status, reconciled: false, date, lines: lines.map((x) => ({ accountId: x.accountId, amount: x.amount })) },
      };
    }
  }
}

interface PutBody {
  description: string;
  date?: string;
  status?: 'draft' | 'posted';
  lines?: ReturnType<typeof buildLines>;
}

function putBody(op: Extract<Op, { kind: 'put' }>, l: Ledger): PutBody {
  const body: PutBody = { description: op.spec.description };
  if (op.withDate) body.date = op.spec.date;
  if (op.spec.status !== undefined) body.status = op.spec.status;
  if (op.withLines) body.lines = buildLines(op.spec, l);
  return body;
}

async function loadState(l: Ledger, id: string): Promise<TxnState | null> {
  const row = await l.db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const lines = await l.db.selectFrom('lines').select(['account_id', 'amount']).where('transaction_id', '=', id).orderBy('line_no').execute();
  return {
    status: row.status,
    reconciled: row.is_reconciled === 1,
    date: row.date,
    lines: lines.map((x) => ({ accountId: x.account_id, amount: x.amount })),
  };
}

async function created(l: Ledger, body: unknown): Promise<string> {
  const r = await l.api.request('POST', '/v1/transactions', { body });
  assert.equal(r.status, 201, show(r));
  return r.body.data.id as string;
}

/** A ledger with three transactions of FY 2025/26 made before it closed: posted and reconciled, posted, posted. */
interface World {
  readonly l: Ledger;
  readonly closedIds: readonly string[];
  readonly closedStates: readonly (TxnState | null)[];
}

async function openWorld(bench: Bench): Promise<World> {
  const closedIds: string[] = [];
  const l = await openLedger(bench, async (l) => {
    const lines = [
      { accountId: l.ids.get('1200'), amount: 12_000 },
      { accountId: l.ids.get('4000'), amount: -12_000 },
    ];
    for (const [date, status] of [
      ['2025-06-01', 'posted'],
      ['2025-07-01', 'posted'],
      // No draft: a year is not closed while a draft journal is dated in it (one would be stuck there).
      ['2025-08-01', 'posted'],
    ] as const) {
      closedIds.push(await created(l, { date, description: 'Before the close', status, lines }));
    }
    const rec = await l.api.request('PATCH', `/v1/transactions/${closedIds[0]}/reconcile`, { body: { reconciled: true } });
    assert.equal(rec.status, 200, show(rec));
  });
  return { l, closedIds, closedStates: await Promise.all(closedIds.map((id) => loadState(l, id))) };
}

/** The world, or a new one when a failed case has broken its ledger or changed the closed year (so shrinking starts sound). */
async function soundWorld(w: World, bench: Bench): Promise<World> {
  const states = await Promise.all(w.closedIds.map((id) => loadState(w.l, id)));
  const intact = JSON.stringify(states) === JSON.stringify(w.closedStates) && (await storedLedgerProblems(w.l)).length === 0;
  return intact ? w : openWorld(bench);
}

t.test('random operations on transactions keep the ledger balanced and a refusal changes nothing', async (t) => {
  const bench = await openBench(t);
  let w = await openWorld(bench);
  const missing = 'txn_0000000000zzzzzzzzzzzzzzzz';
  const chart = await chartCodes(w.l);
  const usable = chart.journal.filter((c) => c !== chart.inactive);
  // The account switched off and on, repeated so that many lines use it.
  const weighted = [...usable, ...Array<string>(10).fill(chart.spare)];

  const fresh = txnSpec({ accounts: weighted, flaws: false, minLines: 2, maxLines: 4, dates: openDate });
  const replacement = txnSpec({ accounts: weighted, flaws: true, minLines: 1, maxLines: 5, dates: anyDate });
  const target: fc.Arbitrary<Target> = fc.record({
    fresh: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    n: fc.nat({ max: 1000 }),
  });
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('status' as const), target, status: fc.constantFrom('draft' as const, 'posted' as const) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('reconcile' as const), target, reconciled: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), target }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('put' as const),
        target,
        spec: replacement,
        withLines: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        withDate: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('account' as const), active: fc.boolean() }) },
  );

  const tally = { accepted: 0, refused: 0 };
  const seen = new Set<string>();

  await fc.assert(
    fc.asyncProperty(fc.array(fresh, { minLength: 1, maxLength: 4 }), fc.array(op, { minLength: 1, maxLength: 12 }), async (specs, ops) => {
      w = await soundWorld(w, bench);
      const { l, closedIds } = w;
      const on = await l.api.request('PUT', `/v1/accounts/${l.spare}`, { body: { isActive: true } });
      assert.equal(on.status, 200, show(on));
      const active = await activeAccounts(l);
      const made: string[] = [];
      for (const spec of specs) made.push(await created(l, buildBody(spec, l)));
      const others = [...closedIds, missing];
      const model = new Map<string, TxnState | null>();
      for (const id of [...made, ...others]) model.set(id, await loadState(l, id));

      for (const o of ops) {
        const before = await rowCounts(l);
        if (o.kind === 'account') {
          const r = await l.api.request('PUT', `/v1/accounts/${l.spare}`, { body: { isActive: o.active } });
          assert.equal(r.status, 200, show(r));
          if (o.active) active.add(l.spare);
          else active.delete(l.spare);
          assert.deepEqual(await activeAccounts(l), active, 'the active accounts');
          assert.deepEqual(await rowCounts(l), before, 'switching an account adds no row');
          continue;
        }
        const group = o.target.fresh ? made : others;
        const id = group[o.target.n % group.length]!;
        const state = model.get(id) ?? null;
        const put = o.kind === 'put' ? putBody(o, l) : null;
        const v = verdict(o, put, state, active);
        const r =
          o.kind === 'status'
            ? await l.api.request('PATCH', `/v1/transactions/${id}/status`, { body: { status: o.status } })
            : o.kind === 'reconcile'
              ? await l.api.request('PATCH', `/v1/transactions/${id}/reconcile`, { body: { reconciled: o.reconciled } })
              : o.kind === 'delete'
                ? await l.api.request('DELETE', `/v1/transactions/${id}`)
                : await l.api.request('PUT', `/v1/transactions/${id}`, { body: put });
        const what = `${o.kind} ${JSON.stringify(o.kind === 'put' ? put : o)} on ${JSON.stringify(state)}`;
        assert.ok(r.status < 500, `no 5xx: ${what} → ${show(r)}`);
        const accepted = r.status >= 200 && r.status < 300;
        assert.equal(accepted, v.ok, `${what}: the model says ${v.ok ? 'accept' : 'refuse'} (${v.why}), got ${show(r)}`);
        seen.add(`${o.kind} ${v.ok ? 'accepted' : 'refused'}: ${v.why.replace(/\d+|acc_\w*|"[^"]*"/g, '…')}`);
        if (v.ok) {
          tally.accepted++;
          assert.deepEqual(await rowCounts(l), plus(before, v.change), `rows after ${what}`);
          assert.deepEqual(await loadState(l, id), v.next, `the transaction after ${what}`);
          model.set(id, v.next);
        } else {
          tally.refused++;
          assert.ok(r.status >= 400, `a 4xx: ${show(r)}`);
          assert.equal(r.body.success, false);
          assert.deepEqual(await rowCounts(l), before, `a refused ${what} leaves every table as it was`);
          assert.deepEqual(await loadState(l, id), state, `a refused ${what} leaves the transaction as it was`);
        }
        await checkStoredLedger(l);
      }
      await checkTrialBalance(l, await postedNets(l));
    }),
    { seed, numRuns },
  );

  t.pass(`${numRuns} sequences hold: ${tally.accepted} operations accepted, ${tally.refused} refused`);
  t.ok(tally.accepted >= 100 && tally.refused >= 100, 'both outcomes are well represented');
  for (const kind of ['status', 'reconcile', 'delete', 'put']) {
    for (const outcome of ['accepted', 'refused'])
      t.ok(
        [...seen].some((x) => x.startsWith(`${kind} ${outcome}`)),
        `some ${kind} ${outcome}`,
      );
  }
  t.comment(`outcomes seen:\n${[...seen].sort().join('\n')}`);
});
