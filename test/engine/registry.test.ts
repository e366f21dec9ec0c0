import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { pathParams } from '../../src/engine/operation.js';
import { outputJsonSchemaOf, typesOf } from '../../src/engine/input.js';
import { cursorMetaSchema, pageMetaSchema, perPageMetaSchema } from '../../src/engine/pagination.js';

t.test('every operation has a unique name, CLI command and route', async (t) => {
  const names = operations.map((o) => o.name);
  t.equal(new Set(names).size, names.length, 'names are unique');
  const commands = operations.map((o) => `${o.cli.group} ${o.cli.action ?? ''}`);
  t.equal(new Set(commands).size, commands.length, 'CLI commands are unique');
  const routes = operations.map((o) => `${o.method} ${o.path.replace(/\{\w+\}/g, '{}')}`);
  t.equal(new Set(routes).size, routes.length, 'routes are unique');
});

t.test('path parameters are declared in the params schema', async (t) => {
  for (const op of operations) {
    t.same(Object.keys(op.schemas.params.shape).sort(), pathParams(op.path).sort(), op.name);
  }
});

/** The writes a caller without a key or session makes: signing up and logging in. */
const publicWrites = [
  'registration.register',
  'auth.login',
  'auth.refresh',
  'auth.totp-verify',
  'email-verification.verify',
  'password-reset.forgot',
  'password-reset.reset',
  // the payment provider's events: trusted by their signature, not a key
  'billing.webhook',
];

t.test('only writes take a body, and writes are never public but for signing up, logging in and the provider signed events', async (t) => {
  for (const op of operations) {
    if (op.method === 'GET') t.equal(op.schemas.body, null, `${op.name} takes no body`);
    if (op.method !== 'GET' && !publicWrites.includes(op.name)) t.not(op.access, 'public', `${op.name} needs a key`);
  }
  t.strictSame(
    operations.filter((op) => op.method !== 'GET' && op.access === 'public').map((op) => op.name),
    publicWrites,
    'the public writes',
  );
});

t.test('a secret shown once is a declared output field that may be null, and says it is replayed as null', async (t) => {
  const withSecrets = operations.filter((op) => op.secrets.length > 0);
  t.strictSame(withSecrets.map((op) => op.name).sort(), [
    'auth.totp-setup',
    'keys.create',
    'keys.rotate',
    'users.impersonate',
    'webhooks.create',
    'webhooks.rotate',
  ]);
  for (const op of withSecrets) {
    const props = outputJsonSchemaOf(op.schemas.output).properties ?? {};
    for (const field of op.secrets) {
      t.ok(typesOf(props[field]).has('null'), `${op.name}: ${field} may be null`);
      t.match(props[field]?.description ?? '', /null when the response is replayed/, `${op.name}: ${field} says why it may be null`);
    }
  }
});

t.test('every paginated list declares its page meta, every cursor-paged report its cursor meta, and nothing else declares meta', async (t) => {
  for (const op of operations) {
    const shape = op.schemas.query.shape;
    // Pagination B (page, perPage: the administrator lists) has its own meta.
    const expected = 'page' in shape ? ('perPage' in shape ? perPageMetaSchema : pageMetaSchema) : 'cursor' in shape ? cursorMetaSchema : null;
    const named = new Map<unknown, string>([
      [pageMetaSchema, 'page meta'],
      [perPageMetaSchema, 'page meta (B)'],
      [cursorMetaSchema, 'cursor meta'],
    ]);
    t.equal(op.schemas.meta, expected, `${op.name}: ${named.get(expected) ?? 'no meta'} declared`);
  }
});
