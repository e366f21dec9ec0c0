/**
 * The index a run uses to load one operation group (src/cli/operation-groups.ts)
 * against the registry: every group, and each group's operations exactly, in
 * the registry's order; and the area of each group's presenters.
 */
import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { operationGroupNames, operationsOfGroup } from '../../src/cli/operation-groups.js';
import { loadPresenters, presenterAreaOf, presenterOf } from '../../src/cli/presenters/registry.js';
import { ledgerPresenters } from '../../src/cli/presenters/ledger.js';
import { reportPresenters } from '../../src/cli/presenters/reports.js';
import { salesPresenters } from '../../src/cli/presenters/sales.js';
import { vatPresenters } from '../../src/cli/presenters/vat.js';
import { bankingPresenters } from '../../src/cli/presenters/banking.js';
import { platformPresenters } from '../../src/cli/presenters/platform.js';

const groups = [...new Set(operations.map((op) => op.cli.group))];

t.test('the index names every group of the registry, and no other', async (t) => {
  t.strictSame([...operationGroupNames].sort(), [...groups].sort());
});

t.test("each group's operations, as the registry has them", async (t) => {
  for (const group of groups) {
    const loaded = await operationsOfGroup(group);
    const expected = operations.filter((op) => op.cli.group === group);
    t.same(
      loaded?.map((op) => op.name),
      expected.map((op) => op.name),
      group,
    );
    t.ok(
      loaded?.every((op, i) => op === expected[i]),
      `${group}: the registry's own objects`,
    );
  }
  t.equal(await operationsOfGroup('no-such-group'), undefined);
  t.equal(await operationsOfGroup('constructor'), undefined, 'not a property of every object');
});

t.test("each group's presenters are in the area the index names", async (t) => {
  await loadPresenters();
  const byArea = {
    ledger: ledgerPresenters,
    reports: reportPresenters,
    sales: salesPresenters,
    vat: vatPresenters,
    banking: bankingPresenters,
    platform: platformPresenters,
  };
  const areaOfOperation = new Map(Object.entries(byArea).flatMap(([area, list]) => list.map((p) => [p.operation, area] as const)));
  for (const group of groups) {
    const shown = operations.filter((op) => op.cli.group === group && presenterOf(op) !== undefined);
    const areas = [...new Set(shown.map((op) => areaOfOperation.get(op.name)))];
    t.same(
      areas.length === 0 ? null : areas,
      group in presenterAreaOf ? (presenterAreaOf[group] === null ? null : [presenterAreaOf[group]]) : 'missing',
      group,
    );
  }
});
