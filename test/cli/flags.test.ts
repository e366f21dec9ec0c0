/**
 * How generated commands turn an operation's fields into flags. The registry
 * has no boolean or camelCase query field yet, so these run the generator
 * in-process on a probe operation (the real bin is covered by the other files).
 */
import { Command } from 'commander';
import t, { type Test } from 'tap';
import { z } from 'zod';
import { defineOperation, type Operation } from '../../src/engine/operation.js';
import { pence } from '../../src/engine/schema.js';
import { operations } from '../../src/engine/registry.js';
import { addOperationCommands, flagsOf, kebab } from '../../src/cli/generate.js';
import { globalOptionDocs } from '../../src/cli/main.js';
import { flagNames } from '../../src/cli/command.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

function probe(seen: Record<string, unknown>[]) {
  return defineOperation({
    name: 'probe.run',
    summary: 'a probe',
    access: 'public',
    method: 'POST',
    path: '/probe',
    query: {
      asOf: z.iso.date().optional(),
      flat: z.boolean().optional(),
    },
    body: {
      accountType: z.enum(['asset', 'liability']).optional(),
      includeArchived: z.boolean().default(false),
      count: z.number().int().optional(),
      tags: z.array(z.string()).optional(),
      lines: z.array(z.object({ amount: z.number() })).optional(),
      json: z.string().optional(),
    },
    output: z.strictObject({ probe: z.boolean() }),
    async run(_ctx, input) {
      seen.push(input);
      return { data: { probe: true } };
    },
  });
}

/** A probe with money fields (pence() in the schema), in the query and the body, plain and nullable, beside a count. */
function moneyProbe(seen: Record<string, unknown>[]) {
  return defineOperation({
    name: 'probe.run',
    summary: 'a probe with money',
    access: 'public',
    method: 'POST',
    path: '/probe',
    query: { minAmount: pence().optional() },
    body: {
      amount: pence().positive().optional(),
      refunded: pence().nullable().optional(),
      allocated: pence().default(0),
      count: z.number().int().optional(),
    },
    output: z.strictObject({ probe: z.boolean() }),
    async run(_ctx, input) {
      seen.push(input);
      return { data: { probe: true } };
    },
  });
}

/** Run `acct --data DIR --json probe run ARGS…` in-process; returns the input the operation received. */
async function runProbe(
  t: Test,
  args: string[],
  make: (seen: Record<string, unknown>[]) => Operation = probe,
  exit = 0,
): Promise<Record<string, unknown> | undefined> {
  const seen: Record<string, unknown>[] = [];
  const program = new Command('acct').exitOverride();
  for (const [flag, description] of globalOptionDocs) program.option(flag, description);
  addOperationCommands(program, [make(seen)]);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back as it was, and called with process.stdout
  const write = process.stdout.write;
  let printed = '';
  // Only the probe's own output is caught; anything else (tap's stream) goes through.
  process.stdout.write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && chunk.includes('"probe"')) {
      printed += chunk;
      return true;
    }
    return (write as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
  };
  try {
    // A data directory with its platform database: only acct init makes one.
    const dir = t.testdir();
    await SqliteStore.open(dir).close();
    await program.parseAsync(['node', 'acct', '--data', dir, '--json', 'probe', 'run', ...args]);
  } finally {
    process.stdout.write = write;
  }
  t.equal(process.exitCode ?? 0, exit, exit === 0 ? 'no error' : `exit ${exit}`);
  process.exitCode = 0;
  if (seen.length > 0) t.equal(printed, '{\n  "probe": true\n}\n', 'the data is printed');
  return seen[0];
}

t.test('the flags of an operation are its fields in kebab-case; objects and reserved names are left to --body', async (t) => {
  t.equal(kebab('asOf'), 'as-of');
  t.equal(kebab('accountType'), 'account-type');
  t.equal(kebab('addressLine1'), 'address-line1');
  t.equal(kebab('flat'), 'flat');
  t.strictSame(
    flagsOf(probe([])).map((f) => `${f.part} ${f.flag}`),
    [
      'query --as-of <date>',
      'query --flat [bool]',
      'body --account-type <asset|liability>',
      'body --include-archived [bool]',
      'body --count <n>',
      'body --tags <list>',
    ],
  );
});

t.test(
  'every flag of the registry is named after its API field (or the one name of its idea, or without the pence of a pounds flag; the field’s own name hidden)',
  async (t) => {
    for (const op of operations) {
      for (const f of flagsOf(op)) {
        // A money field named for the API's pence (amountPence) is typed in pounds, so its flag leaves the unit out (--amount).
        const own = f.pounds ? kebab(f.field).replace(/-pence$/, '') : kebab(f.field);
        t.equal(f.flag.split(' ')[0], `--${flagNames[f.field] ?? own}`, `${op.name} ${f.field}`);
        t.equal(f.names[f.names.length - 1], kebab(f.field), `${op.name} ${f.field}: its own name still works`);
      }
    }
    const settings = operations.find((op) => op.name === 'settings.update');
    t.ok(settings);
    if (settings) t.ok(flagsOf(settings).some((f) => f.flag === '--vat-flat-rate-percent <n>'));
  },
);

t.test('a boolean flag alone is true; with a value it is that value; absent it takes the default', async (t) => {
  const bare = await runProbe(t, ['--flat', '--include-archived']);
  t.equal(bare?.['flat'], true);
  t.equal(bare?.['includeArchived'], true);

  const valued = await runProbe(t, ['--flat', 'false', '--include-archived', 'true']);
  t.equal(valued?.['flat'], false);
  t.equal(valued?.['includeArchived'], true);

  const absent = await runProbe(t, []);
  t.equal(absent?.['flat'], undefined, 'a query flag left out is left out');
  t.equal(absent?.['includeArchived'], false, 'a body field left out takes its default');

  const overBody = await runProbe(t, ['--body', '{"includeArchived":true}', '--include-archived', 'false']);
  t.equal(overBody?.['includeArchived'], false, 'the flag overrides the body');
});

t.test('camelCase fields, numbers and lists arrive typed', async (t) => {
  const input = await runProbe(t, ['--as-of', '2026-03-31', '--account-type', 'asset', '--count', '3', '--tags', 'a, b,c']);
  t.equal(input?.['asOf'], '2026-03-31');
  t.equal(input?.['accountType'], 'asset');
  t.equal(input?.['count'], 3);
  t.strictSame(input?.['tags'], ['a', 'b', 'c']);

  const viaBody = await runProbe(t, ['--body', '{"json":"text","lines":[{"amount":5}]}']);
  t.equal(viaBody?.['json'], 'text', 'a field named like a global option is set through --body');
  t.strictSame(viaBody?.['lines'], [{ amount: 5 }], 'a list of objects is set through --body');
});

t.test('a money field is a flag in pounds, in the query and the body, whatever the operation', async (t) => {
  t.strictSame(
    flagsOf(moneyProbe([])).map((f) => `${f.part} ${f.flag}: ${f.description}`),
    [
      'query --min-amount <pounds>: min amount; in pounds; e.g. 1,250.00',
      'body --amount <pounds>: amount; in pounds; e.g. 1,250.00',
      'body --refunded <pounds>: refunded; in pounds; null clears it; e.g. 1,250.00',
      'body --allocated <pounds>: allocated; in pounds; default 0.00; e.g. 1,250.00',
      'body --count <n>: count; whole number',
    ],
  );
  // £450 = 45000p; £1,234.56 = 123456p; £0.05 = 5p; -£5.00 = -500p
  const input = await runProbe(t, ['--min-amount', '450', '--amount', '£1,234.56', '--refunded', '0.05', '--allocated', '-5.00', '--count', '3'], moneyProbe);
  t.match(input, { minAmount: 45000, amount: 123456, refunded: 5, allocated: -500, count: 3 }, 'pounds in, pence to the operation; a count stays a count');
  t.equal((await runProbe(t, ['--amount', '450.00'], moneyProbe))?.['amount'], 45000);
  t.equal((await runProbe(t, ['--amount', '1,234.56'], moneyProbe))?.['amount'], 123456);
  t.equal((await runProbe(t, ['--refunded', 'null'], moneyProbe))?.['refunded'], null, 'null clears a nullable amount');
  t.equal((await runProbe(t, ['--body', '{"amount":45000}'], moneyProbe))?.['amount'], 45000, '--body stays the API: pence');
  t.equal((await runProbe(t, ['--body', '{"amount":45000}', '--amount', '12'], moneyProbe))?.['amount'], 1200, 'a flag over --body is still pounds');
});

t.test('a money flag with more than two decimals, or not an amount, reaches no operation', async (t) => {
  const printed: string[] = [];
  const error = console.error;
  console.error = (line: unknown) => printed.push(String(line));
  t.teardown(() => (console.error = error));
  const cases: [string[], string][] = [
    [['--amount', '4.505'], '--amount'],
    [['--min-amount', '1.001'], '--min-amount'],
    [['--refunded', 'ten'], '--refunded'],
    [['--allocated', '12,34'], '--allocated'],
  ];
  for (const [args, field] of cases) {
    t.equal(await runProbe(t, args, moneyProbe, 2), undefined, args.join(' '));
    t.match(JSON.parse(printed.pop() ?? '{}'), {
      error: { code: 'validation_error', field, message: `${field} must be an amount in pounds such as 120.00, not ${args[1]}` },
    });
  }
});
