import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { initWizard, type Prompts } from '../../src/cli/init-wizard.js';
import { listOrganisations } from '../../src/engine/platform/organisations.js';
import { loadOrganisation } from '../../src/engine/organisation/organisation.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { acctBin, assertDistFresh, childEnv, runCli } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

/**
 * Canned answers, given in turn as a person would type them: an input's
 * answer goes through its validate, as inquirer's does, and a refused one
 * is recorded with the reason and the question asked again (the next answer).
 */
function canned(answers: unknown[]): Prompts & { asked: string[]; refused: string[] } {
  const asked: string[] = [];
  const refused: string[] = [];
  const next = async (config: { message: string; default?: string; validate?: (v: string) => boolean | string }) => {
    asked.push(config.message);
    for (;;) {
      if (answers.length === 0) throw new Error(`no answer left for ${config.message}`);
      const answer = answers.shift();
      const given = answer === '' && config.default !== undefined ? config.default : answer;
      const verdict = typeof given === 'string' && config.validate ? config.validate(given) : true;
      if (verdict === true) return given;
      refused.push(`${config.message}: ${String(given)}: ${String(verdict)}`);
    }
  };
  return { asked, refused, input: next, select: next, confirm: next } as unknown as Prompts & { asked: string[]; refused: string[] };
}

t.test('the wizard asks for the flat rate only on the flat rate scheme; empty optional answers are left out', async (t) => {
  // name, type, scheme, VAT number, company number, address line 1, town, postcode, year start, confirm
  const standard = canned(['Acme Ltd', 'limited_company', 'standard', '', '', '', '', '', '04-01', true]);
  t.same(await initWizard(standard), { name: 'Acme Ltd', businessType: 'limited_company', vatScheme: 'standard', fiscalYearStart: '04-01' });
  t.notOk(standard.asked.some((m) => m.startsWith('Flat rate')));
  // name, type, scheme, flat rate, VAT number, address line 1, town, postcode, year start, confirm
  const flat = canned(['Jo Bloggs', 'sole_trader', 'flat_rate', '12.5', '', '', '', '', '04-06', true]);
  t.same(await initWizard(flat), {
    name: 'Jo Bloggs',
    businessType: 'sole_trader',
    vatScheme: 'flat_rate',
    vatFlatRatePercent: 12.5,
    fiscalYearStart: '04-06',
  });
});

t.test('VAT number only when registered, company number only for a company, address line 2 only after line 1', async (t) => {
  const soleUnregistered = canned(['Jo Bloggs', 'sole_trader', 'not_registered', '', '', '', '04-06', true]);
  await initWizard(soleUnregistered);
  t.same(soleUnregistered.asked, [
    'Business name',
    'Business type',
    'VAT',
    'Address line 1 (optional)',
    'Town or city (optional)',
    'Postcode (optional)',
    'First day of the financial year (MM-DD)',
    'Create Jo Bloggs?',
  ]);
  const company = canned(['Acme Ltd', 'limited_company', 'standard', 'GB 980 7806 84', '1234567', '1 Park Row', 'Floor 3', 'Leeds', 'LS1 5AB', '', true]);
  t.same(await initWizard(company), {
    name: 'Acme Ltd',
    businessType: 'limited_company',
    vatScheme: 'standard',
    vatNumber: 'GB980780684',
    companyNumber: '01234567',
    addressLine1: '1 Park Row',
    addressLine2: 'Floor 3',
    city: 'Leeds',
    postalCode: 'LS1 5AB',
    fiscalYearStart: '04-01',
  });
  t.same(company.asked.slice(3, 9), [
    'VAT registration number, such as GB 980 7806 84 (optional)',
    'Company number at Companies House, such as 01234567 or SC123456 (optional)',
    'Address line 1 (optional)',
    'Address line 2 (optional)',
    'Town or city (optional)',
    'Postcode (optional)',
  ]);
  t.same(company.refused, []);
});

t.test('a bad VAT number, company number or flat rate is refused with the reason and asked again', async (t) => {
  const prompts = canned([
    'Dales Pottery Ltd',
    'limited_company',
    'flat_rate',
    '30',
    '3.5',
    '12.345',
    '12.5',
    'GB 123 4567 89',
    'GB12345678',
    'GB 123 4567 82',
    '123456789',
    'SC12345',
    '',
    '',
    '',
    '',
    true,
  ]);
  const input = await initWizard(prompts);
  t.match(input, { vatFlatRatePercent: 12.5, vatNumber: 'GB123456782', companyNumber: 'SC012345' });
  t.same(prompts.refused, [
    "Flat rate percentage for your trade (for example 12.5): 30: The flat rate must be from 4 to 16.5: HMRC's flat rates run from 4% (retailing food) to 16.5% (a limited cost trader)",
    "Flat rate percentage for your trade (for example 12.5): 3.5: The flat rate must be from 4 to 16.5: HMRC's flat rates run from 4% (retailing food) to 16.5% (a limited cost trader)",
    'Flat rate percentage for your trade (for example 12.5): 12.345: The flat rate must have at most two decimal places',
    "VAT registration number, such as GB 980 7806 84 (optional): GB 123 4567 89: The VAT number fails HMRC's check digits (GB123456789): is a digit mistyped?",
    'VAT registration number, such as GB 980 7806 84 (optional): GB12345678: The VAT number must be a UK VAT number: 9 digits (12 with a branch number), optionally after GB, such as GB 980 7806 84',
    'Company number at Companies House, such as 01234567 or SC123456 (optional): 123456789: The company number must be 8 characters: 8 digits (a shorter number is padded with zeros), or 2 letters such as SC and 6 digits',
  ]);
});

t.test('declining at the end creates nothing', async (t) => {
  t.equal(await initWizard(canned(['Acme Ltd', 'limited_company', 'standard', '', '', '', '', '', '04-01', false])), null);
});

const python = spawnSync('python3', ['--version']).status === 0;

/** The keys for each prompt of a terminal run, waiting for its text first. */
const dalesPottery: [string, string][] = [
  ['Business name', 'Dales Pottery Ltd\r'],
  ['Business type', '\r'], // first choice: Limited company
  ['VAT', '\x1b[B\x1b[B\r'], // down twice: Flat Rate Scheme
  ['Flat rate percentage', '30\r'],
  ['from 4 to 16.5', '\x7f\x7f12.5\r'], // refused: rub it out, type another
  ['VAT registration number', 'GB 123 4567 89\r'],
  ["fails HMRC's check digits", `${'\x7f'.repeat(14)}GB 980 7806 84\r`],
  ['Company number', '1234567\r'],
  ['Address line 1', '1 Pottery Lane\r'],
  ['Address line 2', '\r'],
  ['Town or city', 'Skipton\r'],
  ['Postcode', 'BD23 1AA\r'],
  ['First day of the financial year', '\r'], // accept the default
  ['Create Dales Pottery Ltd?', 'y\r'],
];

t.test(
  'acct init in a terminal asks the questions, refuses a bad VAT number and flat rate, accepts good ones; piped, it asks nothing',
  { skip: python ? false : 'python3 is needed to drive a pseudo-terminal' },
  async (t) => {
    const dir = t.testdir();
    const driver = fileURLToPath(projectFile('test/wizard/drive-init.py'));
    assertDistFresh();
    const run = spawnSync('python3', [driver, JSON.stringify(dalesPottery), process.execPath, acctBin, '--data', dir, 'init'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: childEnv(),
    });
    t.equal(run.status, 0, run.stdout + run.stderr);
    t.match(run.stdout, "The flat rate must be from 4 to 16.5: HMRC's flat rates run from 4%", '30% refused (the rest of the line wraps at 80 columns)');
    t.match(run.stdout, "The VAT number fails HMRC's check digits (GB123456789): is a digit mistyped?");
    t.match(run.stdout, /Created Dales Pottery Ltd \([0-9a-f-]{36}\)/);
    t.match(run.stdout, /live API key: sk_live_[0-9A-Za-z]{32}/);
    // An 80-column terminal is too narrow for "add a customer:  acct --data DIR contacts create …": the command goes under its label.
    t.match(run.stdout, /Next steps:\r?\n {2}add a customer:\r?\n {4}acct --data \S+( \\\r?\n +)?contacts create/);
    const store = SqliteStore.open(dir);
    t.teardown(() => store.close());
    const [org] = await listOrganisations(store);
    t.match(org, { name: 'Dales Pottery Ltd', businessType: 'limited_company' });
    const row = await loadOrganisation(store.org(org?.id ?? '', 'live').db);
    t.match(row, {
      vat_scheme: 'flat_rate',
      vat_flat_rate_bp: 1250,
      fiscal_year_start: '04-01',
      vat_number: 'GB980780684',
      company_number: '01234567',
      address_line1: '1 Pottery Lane',
      address_line2: null,
      city: 'Skipton',
      postal_code: 'BD23 1AA',
    });

    const piped = runCli(['--data', t.testdir(), 'init']);
    t.equal(piped.status, 2, 'piped: no questions, and no name');
    t.equal(piped.stdout, '');
    t.equal(piped.stderr, 'error validation_error: --name is required (or run init in a terminal to be asked) (field --name)\n');
  },
);

t.test(
  'Ctrl-C or Ctrl-D at any question of the wizard stops it quietly, exit 130, and creates nothing',
  { skip: python ? false : 'python3 is needed to drive a pseudo-terminal' },
  async (t) => {
    const driver = fileURLToPath(projectFile('test/wizard/drive-init.py'));
    assertDistFresh();
    const keys: [string, [string, string][]][] = [
      ['Ctrl-C at the name', [['Business name', '\x03']]],
      ['Ctrl-D at the name', [['Business name', '\x04']]],
      [
        'Ctrl-C at the business type',
        [
          ['Business name', 'Acme Ltd\r'],
          ['Business type', '\x03'],
        ],
      ],
      [
        'Ctrl-D at the business type',
        [
          ['Business name', 'Acme Ltd\r'],
          ['Business type', '\x04'],
        ],
      ],
    ];
    for (const [what, answers] of keys) {
      const dir = `${t.testdir()}/${what.replace(/\W+/g, '-')}`;
      const run = spawnSync('python3', [driver, JSON.stringify(answers), process.execPath, acctBin, '--data', dir, 'init'], {
        encoding: 'utf8',
        timeout: 60_000,
        env: childEnv(),
      });
      t.equal(run.status, 130, `${what}: exit 130 (${run.stdout})`);
      t.match(run.stdout, /\nCancelled: nothing created\.\r?\n$/, `${what}: one line says so`);
      t.notMatch(run.stdout, /ExitPromptError|internal_error|\bat /, `${what}: no stack trace, no internal_error`);
      t.notOk(fs.existsSync(dir), `${what}: no data directory made`);
    }
  },
);
