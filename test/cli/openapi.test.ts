/** `acct openapi`, `acct --version` and `acct --help`. */
import fs from 'node:fs';
import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { pathParams } from '../../src/engine/operation.js';
import { runCli, runCliInProcess } from '../helpers/index.js';
import { projectFile } from '../../src/paths.js';

const pkg = JSON.parse(fs.readFileSync(projectFile('package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };

t.test('acct openapi prints an OpenAPI 3.1.0 document with every operation of the registry', async (t) => {
  const r = await runCliInProcess(['openapi']);
  t.equal(r.status, 0);
  t.equal(r.stderr, '');
  const doc = JSON.parse(r.stdout);
  t.equal(doc.openapi, '3.1.0');
  t.equal(doc.info.version, pkg.version);
  t.strictSame(doc.servers, [{ url: '/v1' }, { url: '/api/v1' }]);
  t.ok(operations.length >= 13, 'the registry is not empty');
  for (const op of operations) {
    const item = doc.paths[op.path]?.[op.method.toLowerCase()];
    t.ok(item, `${op.method} ${op.path}`);
    if (!item) continue;
    t.equal(item.operationId, op.name, `${op.method} ${op.path} is ${op.name}`);
    t.ok(item.responses[String(op.status)], `${op.name} answers ${op.status}`);
    const declared = item.parameters.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name);
    t.strictSame(declared, pathParams(op.path), `${op.name} declares its path parameters`);
    t.equal(item.security.length, op.access === 'public' ? 0 : 1, `${op.name}: a key ${op.access === 'public' ? 'is not' : 'is'} needed`);
  }
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, methods]) =>
    Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
  );
  t.strictSame(
    documented.sort(),
    operations.flatMap((op) => [op.path, ...op.aliases].map((path) => `${op.method} ${path}`)).sort(),
    'nothing more than the registry (with the old paths it still answers at)',
  );
  t.match(doc.paths['/request-log']?.get, { operationId: 'request-log.list.old-path', deprecated: true }, 'an old path is documented as deprecated');
});

t.test('acct --version prints the version of package.json', async (t) => {
  for (const args of [['--version'], ['-V'], ['--data', t.testdir(), '--version']]) {
    const r = runCli(args);
    t.equal(r.status, 0, args.join(' '));
    t.equal(r.stdout, `${pkg.version}\n`, args.join(' '));
  }
});

t.test('acct --help lists the commands and the global options', async (t) => {
  const r = await runCliInProcess(['--help']);
  t.equal(r.status, 0);
  for (const command of ['init', 'serve', 'use', 'demo', 'openapi', 'health', 'organisation', 'settings', 'periods', 'keys']) {
    t.match(r.stdout, new RegExp(`^ {2}${command}\\b`, 'm'), command);
  }
  for (const option of ['--data <dir>', '--org <org>', '--test', '--json', '--version']) {
    t.match(r.stdout, new RegExp(`^ {2}(-\\w, )?${option}\\s`, 'm'), option);
  }
  const keys = await runCliInProcess(['keys', '--help']);
  t.equal(keys.status, 0);
  for (const action of ['list', 'scopes', 'create', 'rotate', 'revoke']) t.match(keys.stdout, new RegExp(`^ {2}${action}\\b`, 'm'), `keys ${action}`);
  const periods = await runCliInProcess(['periods', '--help']);
  for (const action of ['list', 'get', 'close']) t.match(periods.stdout, new RegExp(`^ {2}${action}\\b`, 'm'), `periods ${action}`);
});
