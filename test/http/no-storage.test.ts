/**
 * The HTTP adapter only translates requests and responses: no file of
 * src/http builds a query, imports kysely or the driver, or knows the
 * store's tables. Idempotency records, the request log and the plan
 * lookup are the engine's (src/engine/integration, src/engine/organisation).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { projectFile } from '../../src/paths.js';

const httpDir = fileURLToPath(projectFile('src/http/'));

const forbidden: readonly [string, RegExp][] = [
  ['kysely query builders', /\.(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|selectNoFrom)\s*\(/],
  ['raw SQL', /\bsql\s*(`|\.raw\b)/],
  ['imports of kysely', /from\s+['"]kysely['"]/],
  ['imports of the SQLite driver', /from\s+['"]better-sqlite3['"]/],
  ["imports of the store's tables, driver or migrations", /from\s+['"][./]*store\/(tables|sqlite|migrate)\.js['"]/],
  ['write transactions', /\.write\s*\(\s*(async\s*)?\(?\s*trx\b/],
];

/** The lines of a source text that match a pattern, as `file:line: text`. */
function offending(file: string, text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => pattern.test(line))
    .map(([line, n]) => `${file}:${n}: ${line.trim()}`);
}

t.test('no file of src/http touches storage', async (t) => {
  const files = fs.readdirSync(httpDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  t.ok(files.includes('app.ts') && files.includes('idempotency.ts'), `read src/http: ${files.join(', ')}`);
  for (const file of files) {
    const text = fs.readFileSync(path.join(httpDir, file), 'utf8');
    for (const [what, pattern] of forbidden) t.same(offending(`src/http/${file}`, text, pattern), [], `${file}: no ${what}`);
  }
});

t.test('the check finds what it looks for', async (t) => {
  // The lines the adapter held before the engine took storage over.
  const before = [
    "import { sql } from 'kysely';",
    "    await trx.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();",
    "    const found = await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', request.key).executeTakeFirst();",
    '    await sql`savepoint idempotent_operation`.execute(trx);',
    "        for (let i = 0; i < rows.length; i += 100) await trx.insertInto('request_log').values(rows.slice(i, i + 100)).execute();",
    "import type { RequestLogTable } from '../store/tables.js';",
    '  return books.write(async (trx) => {',
  ];
  for (const line of before)
    t.ok(
      forbidden.some(([, pattern]) => pattern.test(line)),
      `caught: ${line.trim()}`,
    );
  t.notOk(
    forbidden.some(([, pattern]) => pattern.test("import { runIdempotent } from '../engine/integration/idempotency.js';")),
    'calling the engine is allowed',
  );
});
