/**
 * The probes under bench/ still run against the built engine: each once,
 * briefly, for its output's shape only (figures belong to the benchmarks,
 * never to tests). http.mjs and reports.mjs went stale once, unnoticed,
 * when the store became an interface.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { assertDistFresh, childEnv, nodeCommand, runCli } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const bench = (name: string, ...args: string[]) => {
  assertDistFresh(); // the probes import dist/
  const [cmd, argv] = nodeCommand([fileURLToPath(projectFile(`bench/${name}`)), ...args]);
  return spawnSync(cmd, argv, { env: childEnv(), encoding: 'utf8', timeout: 120_000 });
};

t.test('bench/http.mjs serves an organisation and counts its requests', async (t) => {
  const r = bench('http.mjs', '--seconds', '0.3', '--runs', '1', '--connections', '2');
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /GET \/v1\/organisation\s+\d+ requests\/s/);
  t.match(r.stdout, /GET \/v1\/accounts\?flat=true\s+\d+ requests\/s/);
});

t.test('bench/reports.mjs times the reports of a data directory', async (t) => {
  const dir = t.testdir();
  const made = runCli(['--data', dir, 'init', '--name', 'Bench Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard', '--yes']);
  t.equal(made.status, 0, made.stderr);
  const r = bench('reports.mjs', '--data', dir, '--runs', '1');
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^0 lines, as of 2030-12-31/);
  t.match(r.stdout, /trial balance \(engine\)\s+[\d.]+ ms/);
  t.match(r.stdout, /acct report trial-balance \(fresh process\)\s+[\d.]+ ms/);
});
