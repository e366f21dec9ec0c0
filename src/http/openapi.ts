/** The OpenAPI 3.1 document of the HTTP API, generated from the operation registry. */
import { errorTable } from '../engine/errors.js';
import { jsonSchemaOf, outputJsonSchemaOf, type JsonSchema } from '../engine/input.js';
import { describeAccess, pathParams, type Operation } from '../engine/operation.js';
import { version } from '../version.js';

/**
 * An output's JSON Schema with its named definitions (`$defs`: a record
 * that refers to itself, such as an account and its children) moved into
 * `shared`, the document's components, where its references can reach them.
 */
function hoisted(schema: JsonSchema, shared: Record<string, JsonSchema>): JsonSchema {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if ($defs === undefined) return schema;
  const relinked = (s: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(s).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, def] of Object.entries($defs)) {
    const moved = relinked(def);
    if (shared[name] !== undefined && JSON.stringify(shared[name]) !== JSON.stringify(moved)) {
      throw new Error(`two output schemas define ${name} differently: give one another .meta({ id })`);
    }
    shared[name] = moved;
  }
  return relinked(rest);
}

/** The success envelope of an operation: its declared data and, for a list, its page meta. */
function envelope(op: Operation, shared: Record<string, JsonSchema>): JsonSchema {
  const { output, meta } = op.schemas;
  return {
    type: 'object',
    required: meta ? ['success', 'data', 'meta'] : ['success', 'data'],
    properties: {
      success: { const: true },
      data: output ? hoisted(outputJsonSchemaOf(output), shared) : {},
      ...(meta ? { meta: hoisted(outputJsonSchemaOf(meta), shared) } : {}),
    },
    additionalProperties: false,
  };
}

function parameters(op: Operation) {
  const pathProps = jsonSchemaOf(op.schemas.params).properties ?? {};
  const query = jsonSchemaOf(op.schemas.query);
  return [
    ...pathParams(op.path).map((name) => ({ name, in: 'path', required: true, schema: pathProps[name] ?? { type: 'string' } })),
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: (query.required ?? []).includes(name) && schema.default === undefined,
      schema,
    })),
  ];
}

function security(op: Operation) {
  return op.access === 'public' ? [] : [{ bearer: [] }];
}

export function openApiDocument(operations: readonly Operation[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const shared: Record<string, JsonSchema> = {};
  for (const op of operations) {
    const entry = {
      operationId: op.name,
      summary: op.summary,
      description: [op.description, `Access: ${describeAccess(op.access)}.`].filter(Boolean).join('\n\n'),
      tags: [op.cli.group],
      security: security(op),
      'x-scope': op.access,
      parameters: op.signed
        ? [...parameters(op), { name: op.signed.header, in: 'header', required: true, schema: { type: 'string' }, description: 'the signature of the body' }]
        : parameters(op),
      ...(op.signed
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'object', description: 'the signed payload, exactly as its sender made it' } } },
            },
          }
        : op.schemas.body
          ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(op.schemas.body) } } } }
          : {}),
      responses: {
        [String(op.status)]: op.produces
          ? { description: 'The document', content: { [op.produces]: { schema: { type: 'string', contentMediaType: op.produces } } } }
          : { description: 'Success', content: { 'application/json': { schema: envelope(op, shared) } } },
        '4XX': { $ref: '#/components/responses/Error' },
        default: { $ref: '#/components/responses/Error' },
      },
    };
    (paths[op.path] ??= {})[op.method.toLowerCase()] = entry;
    op.aliases.forEach((alias, i) => {
      (paths[alias] ??= {})[op.method.toLowerCase()] = {
        ...entry,
        operationId: `${op.name}.old-path${i === 0 ? '' : String(i + 1)}`,
        description: `The same as ${op.method} ${op.path}, under the path it had before.\n\n${entry.description}`,
        deprecated: true,
      };
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'acct API',
      version,
      description: 'Bookkeeping for UK sole traders and limited companies. Amounts are integers in pence.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/v1' }, { url: '/api/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_live_… or sk_test_… API key' } },
      schemas: {
        ...shared,
        Error: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: Object.keys(errorTable) },
                message: { type: 'string' },
                field: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
  };
}
