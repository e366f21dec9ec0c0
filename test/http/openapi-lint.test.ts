/** The OpenAPI document lints clean under Redocly's recommended rules (redocly.yaml), and describes every response. */
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { openApiDocument } from '../../src/http/openapi.js';
import { operations } from '../../src/engine/registry.js';
import { projectFile } from '../../src/paths.js';

t.test('no problem, error or warning, under the recommended rules', async (t) => {
  const config = await loadConfig({ configPath: fileURLToPath(projectFile('redocly.yaml')) });
  const problems = await lintFromString({ source: JSON.stringify(openApiDocument(operations)), absoluteRef: 'openapi.json', config });
  t.strictSame(
    problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`),
    [],
  );
});

t.test('each JSON response describes its data: the declared output, and meta for lists', async (t) => {
  const doc = openApiDocument(operations);
  for (const op of operations.filter((o) => o.schemas.output !== null && o.produces === null)) {
    const item = (
      doc.paths[op.path] as Record<
        string,
        { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }> }
      >
    )[op.method.toLowerCase()];
    const schema = item?.responses[String(op.status)]?.content['application/json']?.schema;
    t.ok(schema?.properties['data'] && Object.keys(schema.properties['data']).length > 0, `${op.name} describes data`);
    t.equal(schema?.required.includes('meta'), op.schemas.meta !== null, `${op.name}: meta ${op.schemas.meta ? 'required' : 'absent'}`);
  }
});
