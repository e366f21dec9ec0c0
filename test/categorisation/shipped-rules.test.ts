import t from 'tap';
import { decide } from '../../src/engine/categorisation/decide.js';
import { bindGlobalRules, globalRules, parseGlobalRules, parseSeedRules, seedRules } from '../../src/engine/categorisation/shipped-rules.js';
import { validateRule } from '../../src/engine/categorisation/validate.js';
import { ukChart } from '../../src/engine/organisation/chart.js';
import { anyAccount, knownOf } from './support.js';

const limitedCodes = new Set(ukChart('limited_company').map((a) => a.code));
const soleTraderCodes = new Set(ukChart('sole_trader').map((a) => a.code));

t.test('the global rules load, validate, and name accounts of the chart', async (t) => {
  const rules = globalRules();
  t.ok(rules.length >= 36, `a few dozen common payees (${rules.length})`);
  t.same(
    rules.map((r) => r.id),
    rules.map((_, i) => i + 1),
    'ids 1, 2, 3… in file order',
  );
  for (const r of rules) {
    t.ok(limitedCodes.has(r.targetAccountCode) || soleTraderCodes.has(r.targetAccountCode), `${r.name}: ${r.targetAccountCode} is in the chart`);
    t.equal(validateRule(r).value, r.value, `${r.name}: written as it is matched`);
  }
});

t.test('the seed rules load and name accounts both charts have', async (t) => {
  const rules = seedRules();
  t.ok(rules.length >= 4 && rules.length <= 10, `a handful (${rules.length})`);
  for (const r of rules) {
    t.ok(limitedCodes.has(r.targetAccountCode) && soleTraderCodes.has(r.targetAccountCode), `${r.name}: ${r.targetAccountCode} in both charts`);
    t.equal(validateRule(r).value, r.value, `${r.name}: written as it is matched`);
  }
});

t.test('bound to a sole trader, rules for accounts the chart lacks do not apply', async (t) => {
  const idOf = (codes: ReadonlySet<string>) => (code: string) => (codes.has(code) ? `acc_${code}` : undefined);
  const forCompany = bindGlobalRules(globalRules(), idOf(limitedCodes));
  const forSoleTrader = bindGlobalRules(globalRules(), idOf(soleTraderCodes));
  t.equal(forCompany.length, globalRules().length);
  t.notOk(
    forSoleTrader.some((r) => r.name === 'HMRC Corporation Tax'),
    'no Corporation Tax account (2300) for a sole trader',
  );
  const vat = forSoleTrader.find((r) => r.id === 1);
  t.same(vat && { provenance: vat.provenance, targetAccountId: vat.targetAccountId, active: vat.active, createdAt: vat.createdAt }, {
    provenance: 'global',
    targetAccountId: 'acc_2202',
    active: true,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
});

t.test('the shipped global rules decide real-shaped lines', async (t) => {
  const rules = bindGlobalRules(globalRules(), (code) => `acc_${code}`);
  const cases: [string, string][] = [
    ['DIRECT DEBIT PAYMENT TO BRITISH GAS 0811', 'acc_5300'],
    ['CARD PAYMENT TO GOOGLE ADS 4412 ON 02 MAR', 'acc_5910'], // "GOOGLE ADS" (10) beats "GOOGLE" (6) on pattern
    ['CARD PAYMENT TO GOOGLE WORKSPACE 1234', 'acc_5900'],
    ['DD HMRC VAT 123456789', 'acc_2202'],
    ['VIS TESCO STORES 4532', 'acc_5990'],
    ['CARD PAYMENT TO SHELL FOREST HILL 12/03', 'acc_5500'],
    ['NON-STERLING TRANSACTION FEE', 'acc_5800'],
  ];
  for (const [description, account] of cases) t.equal(knownOf(decide(rules, { description }, anyAccount)).accountId, account, description);
});

t.test('a bad shipped file is refused naming the file and the rule', async (t) => {
  const ok = { id: 1, name: 'Tesco', field: 'description', operator: 'contains', value: 'TESCO', targetAccountCode: '5990' };
  const file = (...rules: unknown[]) => ({ createdAt: '2026-01-01T00:00:00.000Z', rules });
  t.same(
    parseGlobalRules(file(ok), 'g.json').map((r) => r.value),
    ['TESCO'],
  );
  const refusals: [unknown, RegExp][] = [
    [{ rules: 'none' }, /^g\.json: expected an object with a rules array$/],
    [file(ok, { ...ok, id: 2, field: 'memo' }), /^g\.json: rule 2: field must be one of/],
    [file(ok, { ...ok, value: 'ASDA' }), /^g\.json: rule 2: id 1 is used twice$/],
    [file(ok, { ...ok, id: 2, value: 'tesco' }), /^g\.json: rule 2: another rule has the same field, operator and value/],
    [file({ ...ok, targetAccountCode: '59' }), /^g\.json: rule 1: targetAccountCode must be a four-digit account code/],
    [file({ ...ok, id: 0 }), /^g\.json: rule 1: id must be a positive whole number$/],
    [{ rules: [ok] }, /^g\.json: rule 1: createdAt must be an ISO 8601 UTC timestamp$/],
    [file({ ...ok, operator: 'regex', value: '(?=a)' }), /^g\.json: rule 1: value: lookaheads and lookbehinds/],
    [file({ ...ok, priority: '5' }), /^g\.json: rule 1: priority must be a number$/],
  ];
  for (const [data, message] of refusals) t.throws(() => parseGlobalRules(data, 'g.json'), { message }, String(message));
  t.throws(() => parseSeedRules({ rules: [{ name: 'x', field: 'amount', operator: 'contains', value: '1', targetAccountCode: '5800' }] }, 's.json'), {
    message: /^s\.json: rule 1: operator contains does not apply to field amount/,
  });
});
