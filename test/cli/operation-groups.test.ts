/**
 * The index a run uses to load one operation group (src/cli/operation-groups.ts)
 * against the registry: every group, and each group's operations exactly, in
 * the registry's order; and the area of each group's presenters.
 */
import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { operationGroupNames, operationsOfGroup } from '../../src/cli/operation-groups.js';
import { loadPresenters, presenterAreaOf, presenterOf } from '../../src/cli/presenters/registry.js';

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
  const areaOfOperation = new Map<string, string>();
  for (const area of ['ledger', 'reports', 'sales', 'vat', 'banking']) {
    const m = (await import(`../../src/cli/presenters/${area}.js`)) as Record<string, unknown>;
    for (const list of Object.values(m)) {
      if (Array.isArray(list)) for (const p of list as { operation?: unknown }[]) if (typeof p.operation === 'string') areaOfOperation.set(p.operation, area);
    }
  }
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
