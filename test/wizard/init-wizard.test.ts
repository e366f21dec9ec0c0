import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { initWizard, type Prompts } from '../../src/cli/commands/init.js';
import { listOrganisations } from '../../src/engine/platform/organisations.js';
import { loadOrganisation } from '../../src/engine/organisation/organisation.js';
import { Store } from '../../src/store/store.js';
import { acctBin, assertDistFresh, childEnv } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

function canned(answers: unknown[]): Prompts & { asked: string[] } {
  const asked: string[] = [];
  const next = async (config: { message: string }) => {
    asked.push(config.message);
    return answers.shift();
  };
  return { asked, input: next, select: next, confirm: next } as unknown as Prompts & { asked: string[] };
}

t.test('the wizard asks for the flat rate only on the flat rate scheme', async (t) => {
  const standard = canned(['Acme Ltd', 'limited_company', 'standard', '04-01', true]);
  t.same(await initWizard(standard), { name: 'Acme Ltd', businessType: 'limited_company', vatScheme: 'standard', fiscalYearStart: '04-01' });
  t.notOk(standard.asked.some((m) => m.startsWith('Flat rate')));
  const flat = canned(['Jo Bloggs', 'sole_trader', 'flat_rate', '12.5', '04-06', true]);
  t.same(await initWizard(flat), {
    name: 'Jo Bloggs',
    businessType: 'sole_trader',
    vatScheme: 'flat_rate',
    vatFlatRatePercent: 12.5,
    fiscalYearStart: '04-06',
  });
});

t.test('declining at the end creates nothing', async (t) => {
  t.equal(await initWizard(canned(['Acme Ltd', 'limited_company', 'standard', '04-01', false])), null);
});

const python = spawnSync('python3', ['--version']).status === 0;

t.test('acct init in a terminal without flags runs the wizard', { skip: python ? false : 'python3 is needed to drive a pseudo-terminal' }, async (t) => {
  const dir = t.testdir();
  const driver = fileURLToPath(projectFile('test/wizard/drive-init.py'));
  assertDistFresh();
  const run = spawnSync('python3', [driver, process.execPath, acctBin, '--data', dir, 'init'], { encoding: 'utf8', timeout: 60_000, env: childEnv() });
  t.equal(run.status, 0, run.stdout + run.stderr);
  t.match(run.stdout, /Created Dales Pottery Ltd \([0-9a-f-]{36}\)/);
  t.match(run.stdout, /live API key: sk_live_[0-9A-Za-z]{32}/);
  const store = Store.open(dir);
  t.teardown(() => store.close());
  const [org] = await listOrganisations(store);
  t.match(org, { name: 'Dales Pottery Ltd', businessType: 'limited_company' });
  const row = await loadOrganisation(store.org(org?.id ?? '', 'live').db);
  t.match(row, { vat_scheme: 'flat_rate', vat_flat_rate_bp: 1250, fiscal_year_start: '04-01' });
});
