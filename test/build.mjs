// Run before the suite (npm pretest): bundle every test file, with src/ and
// the pure-JavaScript packages it uses, into test-dist/, which tap then runs
// as plain JavaScript.
//
// Why: on Node 20 every module a test process loads passes through tap's
// loader hooks (processinfo and, before, tsx) on a separate thread. A test
// file loaded about 700 modules, 357 of them kysely's and zod's small
// files, and paid 1.5 to 2 s of that before its first test; on a fresh
// clone, with tsx's cache cold, about 7 s. Shared code goes into chunks
// (splitting), so the whole build is a few megabytes and takes seconds.
//
// One file can still run from source, through tsx: npx tap test/vat/filing.test.ts
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outdir = path.join(root, 'test-dist');

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

// Packages kept as they are: tap (it loads its plugins by path), native or
// file-reading ones (better-sqlite3, pdfmake's fonts, @redocly's rulesets),
// and the test-only tools.
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const bundled = new Set(['kysely', 'zod', 'commander', 'csv-parse', 'polka', 'chalk']);
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]
  .filter((name) => !bundled.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// tap runs the files in path order, three at a time. A file that says
// "// test-order: first" (a minute of real time, or of one core) is put
// under test-dist/0-first/ so that it starts with the suite and overlaps the
// rest, instead of running alone at the end: on a fresh clone the webhook
// restart test, waiting out its retry schedule, was the last 50 s of 320.
const first = /^\/\/ test-order: first\b/m;
const entry = (file) => {
  const out = path.relative(path.join(root, 'test'), file).replace(/\.ts$/, '');
  return { in: file, out: first.test(fs.readFileSync(file, 'utf8')) ? path.join('0-first', out) : out };
};

/**
 * Folders whose tests run in one process, one file after another (one
 * entry that imports them in order): each test process costs about 0.9 s
 * of CPU to start under tap, more than most of these files take to run.
 * Only folders whose tests leave no state behind them (each cleans up with
 * t.teardown, none changes a global) belong here; a test still runs alone
 * from source with npx tap test/<folder>/<file>.test.ts.
 */
const grouped = new Set([
  'banking',
  'banking-statements',
  'categorisation',
  'company',
  'company-dla',
  'company-pdf',
  'company-tax',
  'edges',
  'engine',
  'imports',
  'imports-cli',
  'imports-http',
  'http',
  'ledger-cli',
  'ledger-http',
  'pdf',
  'reports',
  'store',
  'tabular',
  'vat',
  'vat-mtd',
]);
const groupOf = (file) => {
  const folder = path.relative(path.join(root, 'test'), path.dirname(file));
  return grouped.has(folder) && !first.test(fs.readFileSync(file, 'utf8')) ? folder : null;
};
const groupPlugin = (members) => ({
  name: 'acct-test-groups',
  setup(b) {
    b.onResolve({ filter: /^acct-group:/ }, (args) => ({ path: args.path.slice('acct-group:'.length), namespace: 'acct-group' }));
    b.onLoad({ filter: /.*/, namespace: 'acct-group' }, (args) => ({
      contents: members
        .get(args.path)
        .map((f) => `import ${JSON.stringify(f)};`)
        .join('\n'),
      resolveDir: root,
      loader: 'js',
    }));
  },
});

fs.rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
const files = testFiles(path.join(root, 'test')).sort();
const members = new Map();
for (const file of files) {
  const group = groupOf(file);
  if (group !== null) members.set(group, [...(members.get(group) ?? []), file]);
}
const entryPoints = [
  ...files.filter((f) => groupOf(f) === null).map(entry),
  ...[...members.keys()].map((group) => ({ in: `acct-group:${group}`, out: path.join(group, 'all.test') })),
];
await build({
  plugins: [groupPlugin(members)],
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external,
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS packages bundled into ES modules still call require() for Node's own modules.
  banner: { js: "import { createRequire as __acctCreateRequire } from 'node:module'; const require = __acctCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
console.log(`test-dist: ${files.length} test files bundled as ${entryPoints.length} in ${Math.round(performance.now() - started)} ms`);
