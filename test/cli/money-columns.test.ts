/** Which output fields the CLI's tables print in pounds: those marked pence() in the operation's output schema, and no others. */
import t from 'tap';
import { z } from 'zod';
import { defineOperation } from '../../src/engine/operation.js';
import { pence } from '../../src/engine/schema.js';
import { moneyTestOf } from '../../src/cli/money-columns.js';
import { operations } from '../../src/engine/registry.js';

const op = (name: string) => {
  const found = operations.find((o) => o.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
};

t.test("an invoice: amounts are money, counts and rates are not; a list's records are named by their own fields", async (t) => {
  const invoice = moneyTestOf(op('invoices.get'));
  for (const field of ['total', 'subtotal', 'vatAmount', 'amountDue', 'unitPrice', 'lineTotal']) t.ok(invoice(field), field);
  for (const field of ['quantity', 'vatRate', 'invoiceNumber', 'status']) t.notOk(invoice(field), field);
});

t.test("a webhook's stats24h.total is a count, not pence", async (t) => {
  const hooks = moneyTestOf(op('webhooks.list'));
  t.notOk(hooks('stats24h.total'));
  t.notOk(hooks('total'));
});

t.test('a money field inside a named, recursive schema is found through its reference', async (t) => {
  const node: z.ZodType = z.lazy(() => z.strictObject({ balance: pence(), children: z.array(node) })).meta({ id: 'Node' });
  const tree = defineOperation({
    name: 'tree.get',
    summary: 'a tree',
    access: 'public',
    method: 'GET',
    path: '/tree',
    output: z.strictObject({ roots: z.array(node) }),
    async run() {
      return { data: { roots: [] } };
    },
  });
  const isMoney = moneyTestOf(tree);
  t.ok(isMoney('balance'), 'balance of a node in a list');
  t.notOk(isMoney('children'));
});
