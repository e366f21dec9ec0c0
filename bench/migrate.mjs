// The migration benchmark: `acct migrate --from quickbooks` on a generated,
// consistent QuickBooks Online UK export (N/5 contacts, N outstanding
// invoices, N/2 outstanding bills, and a trial balance whose Accounts
// Receivable and Accounts Payable are those documents' open balances to the
// penny), dry run and committed, each beside `acct bank import` of a Starling
// statement with N rows measured in the same run, so that the ratio per row
// can be read whatever the machine. Every committed run's proof must say the
// books equal the source trial balance, or the benchmark fails.
//
// Usage: node bench/migrate.mjs [--invoices N] [--runs R] [--work DIR] [--profile]
//
// Sizes: N = 1000 and 10000 unless --invoices picks one. Files are generated
// once per size into DIR/<N> (default os.tmpdir()/acct-bench-migrate/<N>).
// Each run inits a fresh organisation (not timed). Figures are medians of R
// runs (default 3), peak resident memory the largest. --profile (or a
// committed run slower than 3 minutes) profiles one committed migration of the
// largest size with node --cpu-prof and lists the top self-time functions.
// Appends the table to bench/results/<date>-migrate.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const acctBin = path.join(root, 'bin/acct');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const flag = (name) => process.argv.includes(`--${name}`);
const sizes = arg('invoices') ? [Number(arg('invoices'))] : [1000, 10000];
for (const n of sizes) if (!Number.isInteger(n) || n < 10) throw new Error(`--invoices: give a whole number of at least 10, not ${n}`);
const runs = Number(arg('runs', '3'));
const workRoot = arg('work', path.join(os.tmpdir(), 'acct-bench-migrate'));
const cutover = '2025-03-31';
/** A committed migration slower than this is profiled (seconds). */
const profileOver = 180;

const log = (text) => process.stderr.write(`[bench-migrate ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

// ---- generating (integer pence throughout) ----------------------------------

/** mulberry32: the same files for the same size on every machine. */
function randomFrom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** "£12,345.67", quoted when it holds a comma, as QuickBooks writes it. */
function qbPounds(pence) {
  if (!Number.isSafeInteger(pence) || pence < 0) throw new Error(`not pence: ${pence}`);
  const whole = String(Math.floor(pence / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = `£${whole}.${String(pence % 100).padStart(2, '0')}`;
  return text.includes(',') ? `"${text}"` : text;
}

/** "£12,345.67" as text, for the notes. */
const pounds = (pence) => qbPounds(pence).replace(/"/g, '');

/** "-850.00" / "1200.00", as Starling writes amounts. */
function plainPounds(pence) {
  const sign = pence < 0 ? '-' : '';
  const p = Math.abs(pence);
  return `${sign}${Math.floor(p / 100)}.${String(p % 100).padStart(2, '0')}`;
}

const dayMs = 86_400_000;
const ukDate = (ms) => {
  const d = new Date(ms);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};
const cutoverMs = Date.UTC(2025, 2, 31);

const csvCell = (text) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** Pronounceable invented words, so that names are as unlike one another as real businesses' are. */
function wordMaker(random) {
  const onsets = ['b', 'br', 'c', 'cl', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p', 'pr', 'r', 's', 'st', 't', 'tr', 'v', 'w', 'z'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', 'n', 'r', 'l', 'st', 'x', 'nd', 'm', 'th', 'ck'];
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  return () => {
    const syllables = 2 + Math.floor(random() * 2);
    let w = '';
    for (let i = 0; i < syllables; i++) w += pick(onsets) + pick(vowels) + (i === syllables - 1 ? pick(codas) : '');
    return w[0].toUpperCase() + w.slice(1);
  };
}

const trades = ['Catering', 'Events', 'Produce', 'Dairy', 'Coffee', 'Legal', 'Motors', 'Supplies', 'Properties', 'Print', 'Joinery', 'Electrical', 'Logistics', 'Bakery', 'Design', 'Consulting', 'Hire', 'Cleaning', 'Florists', 'Packaging'];
const towns = [
  ['Norwich', 'Norfolk', 'NR'],
  ['Great Yarmouth', 'Norfolk', 'NR'],
  ['Ipswich', 'Suffolk', 'IP'],
  ['Cambridge', 'Cambridgeshire', 'CB'],
  ['Wisbech', 'Cambridgeshire', 'PE'],
  ['Colchester', 'Essex', 'CO'],
];
/** Ofcom's drama ranges, a thousand numbers each: enough for 16,000 contacts. */
const phoneRanges = ['01632 960', '0113 496 0', '0114 496 0', '0115 496 0', '0116 496 0', '0117 496 0', '0118 496 0', '0121 496 0', '0131 496 0', '0141 496 0', '0151 496 0', '0161 496 0', '020 7946 0', '0191 498 0', '028 9649 6', '029 2018 0'];
const termDays = { 'Net 30': 30, 'Net 14': 14, 'Due on receipt': 0 };

/**
 * The four QuickBooks exports for N invoices, and the bank statement of N
 * rows. Returns the paths and the counts and sums the proof must show.
 */
function generate(n, dir) {
  const random = randomFrom(n * 7919 + 18);
  const word = wordMaker(random);
  const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

  // Contacts: 60% customers, the rest suppliers; names (and their first words) unique.
  const contactCount = Math.floor(n / 5);
  const customerCount = Math.max(1, Math.floor((contactCount * 3) / 5));
  const contacts = [];
  const seen = new Set();
  while (contacts.length < contactCount) {
    const i = contacts.length;
    const first = word();
    const name = `${first} ${random() < 0.5 ? word() : trades[Math.floor(random() * trades.length)]} Ltd`;
    const key = name.toLowerCase();
    if (seen.has(key) || seen.has(first.toLowerCase())) continue;
    seen.add(key);
    seen.add(first.toLowerCase());
    const slug = name.toLowerCase().replace(/ ltd$/, '').replace(/[^a-z]+/g, '');
    const [city, county, area] = towns[i % towns.length];
    const terms = random() < 0.8 ? 'Net 30' : random() < 0.5 ? 'Net 14' : 'Due on receipt';
    contacts.push({
      name,
      type: i < customerCount ? 'Customer' : 'Supplier',
      email: `accounts@${slug}.example.co.uk`,
      phone: `${phoneRanges[Math.floor(i / 1000)]}${String(i % 1000).padStart(3, '0')}`,
      street: `${between(1, 240)} ${word()} Road`,
      city,
      county,
      postcode: `${area}${between(1, 30)} ${between(1, 9)}${String.fromCharCode(65 + between(0, 25))}${String.fromCharCode(65 + between(0, 25))}`,
      vat: random() < 0.7 ? `GB999${String(100000 + i).padStart(6, '0')}` : '',
      terms,
    });
  }
  const customers = contacts.slice(0, customerCount);
  const suppliers = contacts.slice(customerCount);
  // One business in a hundred also has a second row, "<name> (Accounts)" with its phone and postcode but no
  // e-mail or VAT number: alike enough to be one, a conflict --conflicts split keeps apart (as in the fixtures).
  const alikeRows = [];
  for (let i = 0; i < contactCount; i += 100) {
    const c = contacts[i];
    alikeRows.push({ ...c, name: `${c.name.replace(/ Ltd$/, '')} (Accounts)`, email: '', vat: '' });
  }

  // Documents name their contact as the contacts file does, except one in fifty without "Ltd" (the same once
  // normalised) and one in a hundred with a letter dropped from the first word (one edit: matched by similarity).
  const slip = (name) => {
    const at = Math.floor(name.split(' ')[0].length / 2);
    return `${name.slice(0, at)}${name.slice(at + 1)}`;
  };
  const writtenAs = (contact) => {
    const r = random();
    return r < 0.02 ? contact.name.replace(/ Ltd$/, '') : r < 0.03 ? slip(contact.name) : contact.name;
  };

  // Outstanding documents dated in the six months to the cutover; one in five part-paid.
  const document = (contact) => {
    const dated = cutoverMs - between(0, 181) * dayMs;
    const due = dated + termDays[contact.terms] * dayMs;
    const amount = between(5_000, 500_000);
    const paid = random() < 0.2 ? Math.floor((amount * between(10, 90)) / 100) : 0;
    return { contact, name: writtenAs(contact), dated, due, amount, open: amount - paid };
  };
  const invoices = Array.from({ length: n }, () => document(customers[Math.floor(random() * customers.length)])).sort((a, b) => a.dated - b.dated);
  const bills = Array.from({ length: Math.floor(n / 2) }, () => document(suppliers[Math.floor(random() * suppliers.length)])).sort((a, b) => a.dated - b.dated);
  const total = (xs) => xs.reduce((s, x) => s + x, 0);
  const sum = (docs, key) => total(docs.map((d) => d[key]));
  const receivable = sum(invoices, 'open');
  const payable = sum(bills, 'open');

  // The trial balance, with the fixture's labels: sales six times the debtors,
  // expenses 80% of sales, the bank balance what keeps Retained Earnings a credit.
  const sales = receivable * 6;
  const cafe = Math.floor((sales * 2) / 5);
  const expenseWeights = [
    ['Cost of sales', 40],
    ['Wages and salaries', 36],
    ["Employer's National Insurance", 3],
    ['Rent or lease payments', 10],
    ['Utilities', 4],
    ['Insurance', 1],
    ['Repairs and maintenance', 1],
    ['Bank charges', 1],
    ['Advertising', 1],
    ['Depreciation', 3],
  ];
  const expenses = Math.floor((sales * 8) / 10);
  let allotted = 0;
  const expenseRows = expenseWeights.map(([label, weight], i) => {
    const amount = i === expenseWeights.length - 1 ? expenses - allotted : Math.floor((expenses * weight) / 100);
    allotted += amount;
    return [label, amount, 0];
  });
  const bank = payable + Math.floor(sales / 5) + 2_000_000;
  const fixedDebits = [
    ['1200 Business Current Account', bank, 0],
    ['Petty Cash', 15_000, 0],
    ['Accounts Receivable (A/R)', receivable, 0],
    ['Inventory Asset', 328_000, 0],
    ['Plant and machinery', 2_450_000, 0],
  ];
  const fixedCredits = [
    ['Accumulated depreciation', 0, 980_000],
    ['Accounts Payable (A/P)', 0, payable],
    ['VAT Control', 0, 621_483],
    ['PAYE and NI Payable', 0, 198_640],
    ['Corporation Tax Payable', 0, 461_200],
    ["Director's Loan Account", 0, 1_200_000],
    ['Share capital', 0, 100_000],
  ];
  const salesRows = [
    ['4010 Café Sales', 0, cafe],
    ['4020 Event Catering Sales', 0, sales - cafe],
  ];
  const others = [...fixedDebits, ...fixedCredits, ...salesRows, ...expenseRows];
  const retained = total(others.map(([, d, c]) => d - c));
  if (retained <= 0) throw new Error('the generated trial balance would need a debit Retained Earnings');
  const tbRows = [...fixedDebits, ...fixedCredits, ['Retained Earnings', 0, retained], ...salesRows, ...expenseRows];
  const totalDebit = total(tbRows.map(([, d]) => d));
  const totalCredit = total(tbRows.map(([, , c]) => c));
  if (totalDebit !== totalCredit) throw new Error(`generated trial balance out of balance: ${totalDebit} ≠ ${totalCredit}`);

  fs.mkdirSync(dir, { recursive: true });
  const company = 'Bench Catering Ltd';
  const write = (name, lines) => {
    const file = path.join(dir, name);
    fs.writeFileSync(`${file}.part`, `${lines.join('\n')}\n`);
    fs.renameSync(`${file}.part`, file);
    return file;
  };
  const files = {
    contacts: write('contacts.csv', [
      'Contact List',
      '',
      'Name,Type,Company name,Email,Phone,Street,City,County,Postcode,Country,VAT registration no.,Terms',
      ...[...contacts, ...alikeRows].map((c) => [c.name, c.type, c.name, c.email, c.phone, c.street, c.city, c.county, c.postcode, 'United Kingdom', c.vat, c.terms].map(csvCell).join(',')),
    ]),
    balances: write('trial-balance.csv', [
      'Trial Balance',
      company,
      'As of 31 March 2025',
      '',
      ',Debit,Credit',
      ...tbRows.map(([label, d, c]) => `${csvCell(label)},${d ? qbPounds(d) : ''},${c ? qbPounds(c) : ''}`),
      `TOTAL,${qbPounds(totalDebit)},${qbPounds(totalCredit)}`,
      '',
      '"Accrual basis Monday, 7 April 2025 10:15 AM GMT+01:00"',
    ]),
    invoices: write('invoices.csv', [
      'Open Invoices',
      company,
      'As of 31 March 2025',
      '',
      'Date,Transaction type,No.,Customer,Due date,Amount,Open balance',
      ...invoices.map((d, i) => [ukDate(d.dated), 'Invoice', String(10001 + i), csvCell(d.name), ukDate(d.due), qbPounds(d.amount), qbPounds(d.open)].join(',')),
      `TOTAL,,,,,${qbPounds(sum(invoices, 'amount'))},${qbPounds(receivable)}`,
    ]),
    bills: write('bills.csv', [
      'Unpaid Bills',
      company,
      'As of 31 March 2025',
      '',
      'Date,Transaction type,No.,Supplier,Due date,Past due,Amount,Open balance',
      ...bills.map((d, i) =>
        [ukDate(d.dated), 'Bill', `${d.contact.name.slice(0, 3).toUpperCase()}-${40001 + i}`, csvCell(d.name), ukDate(d.due), String(Math.max(0, Math.round((cutoverMs - d.due) / dayMs))), qbPounds(d.amount), qbPounds(d.open)].join(','),
      ),
      `TOTAL,,,,,,${qbPounds(sum(bills, 'amount'))},${qbPounds(payable)}`,
    ]),
  };

  // A Starling statement of N rows over the year to the cutover, its running balance kept positive.
  let balance = 5_000_000;
  const statement = ['\ufeffDate,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes'];
  const firstMs = cutoverMs - 364 * dayMs;
  for (let i = 0; i < n; i++) {
    const dated = firstMs + Math.floor((i * 365) / n) * dayMs;
    const c = contacts[Math.floor(random() * contacts.length)];
    let amount = random() < 0.45 ? between(1_000, 300_000) : -between(100, 200_000);
    if (balance + amount < 0) amount = -amount;
    balance += amount;
    const [type, category] = amount > 0 ? ['FASTER PAYMENT', 'INCOME'] : random() < 0.5 ? ['CARD', 'BILLS_AND_SERVICES'] : ['DIRECT DEBIT', 'GENERAL'];
    statement.push([ukDate(dated), csvCell(c.name), `REF-${100000 + i}`, type, plainPounds(amount), plainPounds(balance), category, ''].join(','));
  }
  files.statement = write('starling.csv', statement);

  return {
    files,
    contacts: contactCount + alikeRows.length,
    alike: alikeRows.length,
    misspelt: [...invoices, ...bills].filter((d) => d.name !== d.contact.name).length,
    invoices: invoices.length,
    bills: bills.length,
    partPaid: invoices.filter((d) => d.open < d.amount).length + bills.filter((d) => d.open < d.amount).length,
    receivable,
    payable,
    totalDebit,
    /** Data rows the migration reads (after each header, blank lines aside). */
    migrateRows: contactCount + alikeRows.length + tbRows.length + 2 + invoices.length + 1 + bills.length + 1,
    statementRows: n,
  };
}

// ---- measuring ---------------------------------------------------------------

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A command to completion: wall seconds and peak resident MB (GNU time), its exit status and output. */
function timed(cmd, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const lines = r.stderr.trim().split('\n');
  const [s, kb] = lines.pop().split(' ').map(Number);
  return { seconds: s, mb: kb / 1024, status: r.status, stdout: r.stdout, stderr: lines.join('\n') };
}

function acctOnce(args) {
  const r = spawnSync(process.execPath, [acctBin, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`acct ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return r.stdout;
}

function freshOrganisation(work, name) {
  const data = fs.mkdtempSync(path.join(work, `${name}-`));
  acctOnce(['--data', data, 'init', '--name', 'Bench Catering Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard', '--yes', '--json']);
  return data;
}

/** Fail loudly unless the migration's proof is what the generated files were built to give. */
function checkRun(m, g, dryRun, what) {
  let run;
  try {
    run = JSON.parse(m.stdout);
  } catch {
    throw new Error(`${what}: exit ${m.status}, no JSON proof: ${m.stderr.slice(-2000)}`);
  }
  const problems = [];
  if (m.status !== 0) problems.push(`exit status ${m.status}`);
  if (run.passed !== true) problems.push(`passed is ${run.passed} (failure: ${run.failure})`);
  if (run.committed !== !dryRun) problems.push(`committed is ${run.committed}`);
  if (run.reconciliation?.matchesSource !== true) problems.push('reconciliation.matchesSource is not true');
  const made = Object.fromEntries(run.documents.map((d) => [d.direction, d.created]));
  if (made.receivables !== g.invoices) problems.push(`${made.receivables} invoices brought forward, not ${g.invoices}`);
  if (made.payables !== g.bills) problems.push(`${made.payables} bills brought forward, not ${g.bills}`);
  const contactsCreated = run.documents.reduce((s, d) => s + d.contactsCreated, 0);
  if (contactsCreated !== 0) problems.push(`${contactsCreated} documents' contacts not found among the imported contacts`);
  if (run.contacts?.created !== g.contacts) problems.push(`${run.contacts?.created} contacts created, not ${g.contacts}`);
  const synthetic = run.documents.reduce((s, d) => s + d.syntheticPayments, 0);
  if (synthetic !== g.partPaid) problems.push(`${synthetic} part-paid documents, not ${g.partPaid}`);
  const r = run.reconciliation;
  if (r && (r.receivablesClearing !== '0.00' || r.payablesClearing !== '0.00')) problems.push(`1198 ${r.receivablesClearing}, 2198 ${r.payablesClearing}: not cleared`);
  if (problems.length > 0) {
    const gates = run.gates.filter((x) => !x.passed).map((x) => `${x.code}: ${x.message}`);
    const differing = r ? r.accounts.filter((a) => a.difference !== '0.00').map((a) => `${a.code} ${a.name}: source ${a.expected}, books ${a.actual}`) : [];
    throw new Error(`${what}: the proof does not hold: ${[...problems, ...gates, ...differing].join('; ')}`);
  }
  return run;
}

function checkBank(m, rows, what) {
  if (m.status !== 0) throw new Error(`${what}: exit ${m.status}: ${m.stderr.slice(-2000)}`);
  const { confirmed } = JSON.parse(m.stdout);
  if (confirmed?.created !== rows) throw new Error(`${what}: ${confirmed?.created} transactions created, not ${rows}`);
}

// ---- profiling -----------------------------------------------------------------

/** The bundle's module markers ("// dist/engine/…js", "// ../main/node_modules/…js"), to name the module a profiled line is in. */
function bundleModules(file) {
  const marks = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (/^\/\/ \S+\.[cm]?js$/.test(line)) marks.push([i, line.slice(3).replace(/^(?:\.\.\/)+(?:main\/)?/, '')]);
    });
  return (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let found = '?';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid][0] <= line) {
        found = marks[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** Self time by function from a .cpuprofile: the top `count`, with the total. */
function topSelfTime(profileFile, count) {
  const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const moduleOf = bundleModules(path.join(root, 'dist/acct.cjs'));
  const byFunction = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    total += us;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = url.endsWith('acct.cjs') ? moduleOf(lineNumber) : url ? url.replace(/^file:\/\//, '').replace(`${root}/`, '') : '';
    const key = `${functionName || '(anonymous)'}\t${where}${where && url.endsWith('acct.cjs') ? ` (acct.cjs:${lineNumber + 1})` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, count);
  return { totalMs: total / 1000, top: top.map(([key, us]) => ({ fn: key.split('\t')[0], where: key.split('\t')[1], ms: us / 1000, share: us / total })) };
}

// ---- the runs ------------------------------------------------------------------

const fmtS = (x) => (x >= 10 ? `${x.toFixed(1)} s` : x >= 1 ? `${x.toFixed(2)} s` : `${(x * 1000).toFixed(0)} ms`);
const fmtN = (x) => x.toLocaleString('en-GB');
const rows = [];
const notes = [];
let profileWanted = flag('profile');
let largest;

for (const n of sizes) {
  const work = path.join(workRoot, String(n));
  fs.mkdirSync(work, { recursive: true });
  log(`generating ${fmtN(n)} invoices into ${work}`);
  const g = generate(n, path.join(work, 'files'));
  const f = g.files;
  const migrateArgs = ['migrate', '--from', 'quickbooks', '--contacts', f.contacts, '--balances', f.balances, '--invoices', f.invoices, '--bills', f.bills, '--cutover', cutover, '--conflicts', 'split'];
  largest = { n, g, migrateArgs, work };
  const dry = [];
  const committed = [];
  const bank = [];
  let proof;
  for (let i = 0; i < runs; i++) {
    const data = freshOrganisation(work, 'migrate');
    log(`${fmtN(n)} invoices, run ${i + 1} of ${runs}: migrate --dry-run`);
    const d = timed(process.execPath, [acctBin, '--data', data, '--json', ...migrateArgs, '--dry-run']);
    checkRun(d, g, true, `${fmtN(n)} invoices, dry run ${i + 1}`);
    dry.push(d);
    log(`  ${fmtS(d.seconds)}, ${d.mb.toFixed(0)} MB; migrate (committed)`);
    const c = timed(process.execPath, [acctBin, '--data', data, '--json', ...migrateArgs]);
    proof = checkRun(c, g, false, `${fmtN(n)} invoices, committed run ${i + 1}`);
    committed.push(c);
    log(`  ${fmtS(c.seconds)}, ${c.mb.toFixed(0)} MB; the proof holds (books = source, 1198 and 2198 at 0.00)`);
    fs.rmSync(data, { recursive: true, force: true });
    if (c.seconds > profileOver) profileWanted = true;

    const bankData = freshOrganisation(work, 'bank');
    log(`  bank import of ${fmtN(g.statementRows)} Starling rows`);
    const b = timed(process.execPath, [acctBin, '--data', bankData, '--json', 'bank', 'import', f.statement]);
    checkBank(b, g.statementRows, `${fmtN(n)} rows, bank import ${i + 1}`);
    bank.push(b);
    log(`  ${fmtS(b.seconds)}, ${b.mb.toFixed(0)} MB`);
    fs.rmSync(bankData, { recursive: true, force: true });
  }
  const summary = (all) => ({ seconds: median(all.map((m) => m.seconds)), mb: Math.max(...all.map((m) => m.mb)) });
  const b = summary(bank);
  const bankPerRow = b.seconds / g.statementRows;
  const documents = g.invoices + g.bills;
  for (const [step, all] of [
    ['`acct migrate … --dry-run`', dry],
    ['`acct migrate …` (committed)', committed],
  ]) {
    const m = summary(all);
    const perRow = m.seconds / g.migrateRows;
    rows.push({
      size: n,
      step,
      rows: `${fmtN(g.migrateRows)} (${fmtN(g.contacts)} contacts, ${fmtN(g.invoices)} invoices, ${fmtN(g.bills)} bills, trial balance)`,
      seconds: m.seconds,
      mb: m.mb,
      rate: `${(documents / m.seconds).toFixed(0)} documents/s`,
      perRow: `${((perRow * 1e6) / 1000).toFixed(2)} ms`,
      ratio: `${(perRow / bankPerRow).toFixed(1)}× per row (${(m.seconds / b.seconds).toFixed(1)}× in all)`,
    });
  }
  rows.push({
    size: n,
    step: '`acct bank import` (Starling CSV, reference)',
    rows: fmtN(g.statementRows),
    seconds: b.seconds,
    mb: b.mb,
    rate: `${(g.statementRows / b.seconds).toFixed(0)} rows/s`,
    perRow: `${((bankPerRow * 1e6) / 1000).toFixed(2)} ms`,
    ratio: '1×',
  });
  notes.push(
    `${fmtN(n)} invoices: A/R ${pounds(g.receivable)}, A/P ${pounds(g.payable)}, trial balance totals ${pounds(g.totalDebit)}; ` +
      `${fmtN(g.partPaid)} part-paid documents (synthetic payments); ${fmtN(g.misspelt)} documents name their contact differently from the contacts file (no "Ltd", or a letter dropped); ` +
      `contacts: ${fmtN(proof.contacts.created)} created, ${fmtN(proof.contacts.merged)} merged, ${fmtN(proof.contactConflicts.length)} pairs found alike enough to be one (of ${fmtN(g.alike)} "(Accounts)" second rows generated), kept apart with --conflicts split. ` +
      "Every committed run's proof: passed, reconciliation.matchesSource, 1198 and 2198 at 0.00, every document's contact found among the imported ones.",
  );
}

let profile;
if (profileWanted) {
  const { n, migrateArgs, work } = largest;
  const data = freshOrganisation(work, 'profile');
  const dir = fs.mkdtempSync(path.join(work, 'cpuprofile-'));
  log(`profiling one committed migration of ${fmtN(n)} invoices (node --cpu-prof into ${dir})`);
  const m = timed(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, acctBin, '--data', data, '--json', ...migrateArgs]);
  checkRun(m, largest.g, false, 'profiled run');
  const file = path.join(dir, fs.readdirSync(dir).find((x) => x.endsWith('.cpuprofile')));
  profile = { n, seconds: m.seconds, file, ...topSelfTime(file, 15) };
  fs.rmSync(data, { recursive: true, force: true });
}

// ---- the results ---------------------------------------------------------------

const header = '| invoices | step | rows read | wall (median) | peak RSS | throughput | time per row | vs bank import |\n|---:|---|---|---:|---:|---:|---:|---|\n';
const table =
  header +
  rows.map((r) => `| ${fmtN(r.size)} | ${r.step} | ${r.rows} | ${fmtS(r.seconds)} | ${r.mb.toFixed(0)} MB | ${r.rate} | ${r.perRow} | ${r.ratio} |`).join('\n') +
  '\n';
const profileText = profile
  ? `\nProfile of one committed migration of ${fmtN(profile.n)} invoices (${fmtS(profile.seconds)} under the profiler, ${fmtS(profile.totalMs / 1000)} sampled), top self time:\n\n` +
    '| self time | share | function | module (bundle line) |\n|---:|---:|---|---|\n' +
    profile.top.map((t) => `| ${fmtS(t.ms / 1000)} | ${(t.share * 100).toFixed(1)}% | \`${t.fn}\` | ${t.where} |`).join('\n') +
    `\n\n(${profile.file})\n`
  : '';
const today = new Date().toISOString().slice(0, 10);
const section =
  `\n## \`node bench/migrate.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n\n` +
  `${os.cpus().length} shared cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os.loadavg()[0].toFixed(2)} at the end; Node ${process.version}. ` +
  `Medians of ${runs} runs each, every run in a freshly initialised organisation (init not timed), peak RSS the largest of the runs (GNU time). ` +
  'The machine is shared, so absolute times vary between runs: compare the ratios within one run. ' +
  'Rows read: the data rows of the four QuickBooks files (contacts, trial balance with its TOTAL and footer, invoices and bills each with a TOTAL row). ' +
  'Throughput counts invoices and bills; "vs bank import" is the time per row read over `acct bank import`\'s time per statement row, in the same run.\n\n' +
  table +
  '\n' +
  notes.map((t) => `- ${t}\n`).join('') +
  profileText;
const resultsDir = path.join(root, 'bench/results');
const mdFile = path.join(resultsDir, `${today}-migrate.md`);
if (!fs.existsSync(mdFile)) fs.writeFileSync(mdFile, `# Migration benchmark, ${today}\n\nReproduce: \`npm run build && node bench/migrate.mjs\` (see the top of bench/migrate.mjs).\n`);
fs.appendFileSync(mdFile, section);
process.stdout.write(section);
log(`written to ${path.relative(root, mdFile)}`);
