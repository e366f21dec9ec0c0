/** Named schemas of outputs (a record that holds records like itself) become components of the OpenAPI document, where their references resolve. */
import t from 'tap';
import { z } from 'zod';
import { defineOperation } from '../../src/engine/operation.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { operations } from '../../src/engine/registry.js';

t.test('the account tree: AccountNode in components, referred to by accounts.list and by its own children', async (t) => {
  const doc = openApiDocument(operations);
  const text = JSON.stringify(doc);
  t.notOk(text.includes('"#/$defs/'), 'no reference is left pointing at $defs');
  t.notOk(text.includes('"$defs"'), 'no $defs is left inside a response');
  const node = (doc.components.schemas as Record<string, { properties: Record<string, { items?: { $ref?: string } }> }>)['AccountNode'];
  t.equal(node?.properties['children']?.items?.$ref, '#/components/schemas/AccountNode');
  t.ok(node?.properties['accountType'], 'with the fields of an account');
  t.match(text, /"accounts":\{[^]*"\$ref":"#\/components\/schemas\/AccountNode"/);
});

t.test('two outputs that define one name differently are refused, so neither is silently lost', async (t) => {
  const ofShape = (name: string, field: string) => {
    const node: z.ZodType = z
      .strictObject({
        [field]: z.string(),
        get kids() {
          return z.array(node);
        },
      })
      .meta({ id: 'Clash' });
    return defineOperation({
      name,
      summary: 'test',
      access: 'public',
      method: 'GET',
      path: `/${name}`,
      output: node,
      async run() {
        return { data: {} };
      },
    });
  };
  t.throws(() => openApiDocument([ofShape('a', 'x'), ofShape('b', 'y')]), /two output schemas define Clash differently/);
});
