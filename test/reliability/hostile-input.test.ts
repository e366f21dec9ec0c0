/**
 * Hostile input over real HTTP: every operation of the registry is sent
 * bodies of the wrong type field by field, 100k-character strings, deep
 * nesting, numbers JSON cannot hold (1e309, NaN), fractional pence,
 * __proto__ and constructor keys, invalid UTF-8, truncated JSON, empty
 * bodies, wrong content types, malformed path ids and junk query strings.
 *
 * Whatever arrives, the server answers below 500; a 4xx carries the error
 * envelope with a code and a message that shows no stack trace; and a
 * refused request leaves the organisation's live database (every table
 * but the request log and idempotency keys, which the server writes for
 * any request) and the platform's api_keys byte for byte as they were.
 *
 * Every operation is walked once with a fixed list of nasty inputs, then
 * fast-check draws more. Replay a failure with the seed and run count the
 * test prints: ACCT_FUZZ_SEED=… ACCT_FUZZ_RUNS=… npx tap <this file>.
 */
import assert from 'node:assert/strict';
import t from 'tap';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { newBooks, serveBooks, tableDigests, userTables, type Api, type Books } from '../helpers/index.js';
import { operations } from '../../src/engine/registry.js';
import { jsonSchemaOf, typesOf, type JsonSchema } from '../../src/engine/input.js';
import { pathParams, type Operation } from '../../src/engine/operation.js';

const clock = '2026-11-21T10:00:00Z';
const seed = Number(process.env['ACCT_FUZZ_SEED'] ?? 20261121);
const numRuns = Number(process.env['ACCT_FUZZ_RUNS'] ?? 200);

/** The tables any request may write, refused or not (the request log is written after the answer). */
const volatileTables = new Set(['request_log', 'idempotency_keys']);

// ---------------------------------------------------------------------------
// Requests and their checks.

interface Hostile {
  /** What kind of hostility, for the tally and for messages. */
  readonly kind: string;
  readonly method: string;
  /** From /v1 on, with any query string. */
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string | Uint8Array;
}

interface Answer {
  readonly status: number;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope is checked field by field
  readonly body: any;
}

const clip = (s: string, n = 160): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function describe(r: Hostile): string {
  let body = '';
  if (typeof r.body === 'string') body = ` body ${JSON.stringify(clip(r.body))}`;
  else if (r.body) body = ` body bytes ${Buffer.from(r.body).toString('hex').slice(0, 80)} (${r.body.byteLength} bytes)`;
  return `[${r.kind}] ${r.method} ${clip(r.path, 200)}${r.contentType ? ` content-type ${r.contentType}` : ''}${body}`;
}

const showAnswer = (a: Answer): string => `${a.status} ${clip(a.text, 400)}`;

/** Send exactly these bytes with the organisation's all-scope live key (serveBooks' default). */
async function send(api: Api, r: Hostile): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  const raw = r.body === undefined || typeof r.body === 'string' ? r.body : new Uint8Array(r.body);
  return api.request(r.method, r.path, { raw, headers });
}

/** A digest of every row of each table, by table name. */
async function tableHashes<DB>(db: Kysely<DB>, only?: ReadonlySet<string>): Promise<Map<string, string>> {
  const tables = (await userTables(db)).filter((name) => !volatileTables.has(name) && (!only || only.has(name)));
  return tableDigests(db, tables);
}

interface Snapshot {
  readonly org: Map<string, string>;
  readonly platform: Map<string, string>;
}

async function snapshot(books: Books): Promise<Snapshot> {
  return {
    org: await tableHashes(books.store.org(books.organisationId, 'live').db),
    platform: await tableHashes(books.store.platform.db, new Set(['api_keys'])),
  };
}

function changedTables(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [where, a, b] of [
    ['org', before.org, after.org],
    ['platform', before.platform, after.platform],
  ] as const) {
    for (const name of new Set([...a.keys(), ...b.keys()])) if (a.get(name) !== b.get(name)) out.push(`${where}.${name}`);
  }
  return out;
}

/** What must hold of any answer; throws (for fast-check) naming the request and the answer. */
function checkAnswer(r: Hostile, a: Answer): void {
  const what = `${describe(r)} → ${showAnswer(a)}`;
  assert.ok(a.status < 500, `5xx: ${what}`);
  if (a.status >= 400) {
    assert.equal(a.body?.success, false, `error envelope success: false: ${what}`);
    assert.equal(typeof a.body?.error?.code, 'string', `error.code is a string: ${what}`);
    assert.equal(typeof a.body?.error?.message, 'string', `error.message is a string: ${what}`);
    assert.doesNotMatch(a.body.error.message as string, /    at |\.ts:|\.js:/, `no stack trace in the message: ${what}`);
  }
}

/**
 * Sends requests and checks each one; keeps the snapshot of the database
 * between them (an accepted request may change it, a refused one may not)
 * and tallies what happened.
 */
class Harness {
  private last: Snapshot | undefined;
  readonly tally = new Map<string, number>();
  /** Hostile-looking requests the server accepted (2xx): not failures, worth reading. */
  readonly accepted: string[] = [];
  sent = 0;

  constructor(
    private readonly api: Api,
    private readonly books: Books,
  ) {}

  async run(r: Hostile): Promise<Answer> {
    const before = (this.last ??= await snapshot(this.books));
    let a: Answer;
    try {
      a = await send(this.api, r);
    } catch (e) {
      this.last = undefined;
      throw new assert.AssertionError({ message: `no answer: ${describe(r)}: ${String(e)} (${String((e as Error).cause)})` });
    }
    this.sent++;
    const key = `${r.kind} ${Math.floor(a.status / 100)}xx`;
    this.tally.set(key, (this.tally.get(key) ?? 0) + 1);
    if (a.status < 300) this.accepted.push(`${describe(r)} → ${a.status}`);
    const after = await snapshot(this.books);
    this.last = after;
    checkAnswer(r, a);
    if (a.status >= 400) {
      const changed = changedTables(before, after);
      assert.deepEqual(changed, [], `a refused request changed ${changed.join(', ')}: ${describe(r)} → ${showAnswer(a)}`);
    }
    return a;
  }
}

// ---------------------------------------------------------------------------
// The targets: each operation with its fields, and ids to put in its path.

interface Field {
  readonly name: string;
  /** The JSON types the field accepts (empty: unknown, anything is tried). */
  readonly types: ReadonlySet<string>;
  /** A YYYY-MM-DD date. */
  readonly date: boolean;
}

const isDateSchema = (s: JsonSchema | undefined): boolean => s !== undefined && (s.format === 'date' || (s.anyOf ?? []).some(isDateSchema));

interface Target {
  readonly op: Operation;
  readonly fields: readonly Field[];
  readonly params: readonly string[];
  /** Ids of the right shape that name nothing: the body is validated, then 404. */
  readonly wellFormed: Readonly<Record<string, string>>;
  /** Ids of rows that exist, where sending a body to them is safe (not keys, not deletes). */
  readonly real: Readonly<Record<string, string>> | null;
}

const unknownIds = ['acc', 'txn', 'cont', 'inv', 'quo', 'bill', 'key', 'whe', 'req'].map((p) => `${p}_00000000000zzzzzzzzzzzzzzz`).concat('period_20990401');

function targetOf(op: Operation, realByPrefix: ReadonlyMap<string, string>): Target {
  const params = pathParams(op.path);
  const wellFormed: Record<string, string> = {};
  const real: Record<string, string> = {};
  for (const name of params) {
    const schema = op.schemas.params.shape[name];
    const ok = (v: string) => schema !== undefined && schema.safeParse(v).success;
    wellFormed[name] = unknownIds.find(ok) ?? 'x';
    const existing = [...realByPrefix.values()].find(ok);
    if (existing) real[name] = existing;
  }
  const props = op.schemas.body ? (jsonSchemaOf(op.schemas.body).properties ?? {}) : {};
  const fields = op.schemas.body
    ? Object.keys(op.schemas.body.shape).map((name) => ({ name, types: typesOf(props[name]), date: isDateSchema(props[name]) }))
    : [];
  const safe = op.schemas.body !== null && op.method !== 'DELETE' && !op.path.startsWith('/api-keys') && params.every((p) => p in real);
  return { op, fields, params, wellFormed, real: params.length > 0 && safe ? real : null };
}

function pathOf(target: Target, ids: Readonly<Record<string, string>>, query = ''): string {
  const path = target.op.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? 'x');
  return `/v1${path}${query === '' ? '' : `?${query}`}`;
}

// ---------------------------------------------------------------------------
// The nasty inputs.

/** Values of every JSON type; a field is sent those its schema does not take. */
const samples: readonly { value: unknown; kinds: readonly string[] }[] = [
  { value: 'x', kinds: ['string'] },
  { value: '12', kinds: ['string'] },
  { value: 12, kinds: ['number', 'integer'] },
  { value: 10.5, kinds: ['number'] },
  { value: -1, kinds: ['number', 'integer'] },
  { value: true, kinds: ['boolean'] },
  { value: null, kinds: ['null'] },
  { value: [], kinds: ['array'] },
  { value: [1, 'a'], kinds: ['array'] },
  { value: {}, kinds: ['object'] },
  { value: { a: { b: 1 } }, kinds: ['object'] },
  // Arrays of the wrong things: wrong even where an array is taken.
  { value: [null], kinds: [] },
  { value: [{ quantity: '1', unitPrice: 10.5, amount: '5', accountId: 12 }], kinds: [] },
  { value: [[[]]], kinds: [] },
];

function wrongValues(types: ReadonlySet<string>): unknown[] {
  const wrong = samples.filter((s) => !s.kinds.some((k) => types.has(k))).map((s) => s.value);
  return wrong.length > 0 ? wrong : samples.map((s) => s.value);
}

/** Literal JSON number tokens, some of them not JSON at all. */
const numberTokens = [
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '10.5',
  '0.001',
  '1e-400',
  '9007199254740993',
  '-9007199254740993',
  '1e21',
  '0x10',
  '+1',
  '.5',
  '01',
];

const deep = (n: number, open = '[', close = ']'): string => open.repeat(n) + close.repeat(n);

const protoBodies = (f: string): string[] => [
  '{"__proto__": {"x": 1}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  `{"__proto__": {"${f}": "polluted"}, "${f}": null}`,
  '{"__proto__": null}',
  '{"toString": 1, "hasOwnProperty": "x", "valueOf": []}',
  `{"items": [{"__proto__": {"quantity": 1}}], "lines": [{"constructor": {}}]}`,
];

const utf8Bodies = (f: string): Uint8Array[] => [
  Buffer.concat([Buffer.from(`{"${f}": "`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
  Buffer.from([0xff, 0xfe, 0xfd]),
  Buffer.concat([Buffer.from(`{"${f}": "`), Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]),
  Buffer.concat([Buffer.from('{"'), Buffer.from([0xff]), Buffer.from('": 1}')]),
];

/** Path ids that are not ids (already percent-encoded where they need it). */
const malformedIds = [
  'x',
  'acc_',
  'ACC_1',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  '%ff',
  '%E0%A4%A',
  '%00',
  '..%2F..%2Fplatform.sqlite',
  `acc_${'a'.repeat(65)}`,
  "acc_1'%20or%20'1'%3D'1",
  '%F0%9F%98%80',
  'x'.repeat(3000),
];

const junkQueries = [
  'page=-1',
  'limit=1e9',
  'sort=__proto__',
  'from=2026-13-45',
  'to=2026-02-30',
  'asOf=junk',
  'page=1e309',
  'limit=NaN',
  'page=1&page=2',
  '__proto__=1',
  '__proto__=a&__proto__=b',
  'constructor=x&toString=1&hasOwnProperty=2',
  'page=9007199254740993',
  'page=9007199254740991&limit=100',
  'search=%25_%27%22--%00',
  'status=%ff',
  'sort=-',
  'sort=createdAt&sort=-createdAt',
  'from=9999-12-31&to=0000-01-01',
  'from=0000-01-01&to=9999-12-31',
  'asOf=0000-01-01&asOfDate=9999-12-31',
  'active=maybe&flat=2&reconciled=%5B%5D&errors=1e3',
  'type=__proto__&method=TRACE',
  'limit=0&page=0',
  'limit=-0',
  'page=0x10',
  `search=${'s'.repeat(5000)}`,
  'comparative=%7B%7D&accountId=acc_%00',
];

/** Ids of a valid shape but extreme (tried wherever the parameter's schema takes them): years 0000 and 9999, the longest id. */
const edgeIds = [
  'period_00000401',
  'period_09990401',
  'period_99990401',
  'period_99991231',
  ...['acc', 'txn', 'cont', 'inv', 'quo', 'bill', 'key', 'whe', 'req'].map((p) => `${p}_${'Z'.repeat(64)}`),
];

/** Query parameters that hold a date: well-formed but extreme years, and dates that do not exist. */
const isDateKey = (key: string): boolean => /^(from|to)(Date)?$|^asOf/.test(key);
const dateJunk = ['2026-13-45', '0000-01-01', '9999-12-31', '0999-12-31', '2025-02-29'];
const valueJunk = ['-1', '1e309', '__proto__', '', '9007199254740993', '%ff', 'a,b', 'NaN', '1.5', 'null', '%00'];

/** The junk values one query parameter is walked with. */
function queryJunk(key: string, i: number): string[] {
  if (isDateKey(key)) return dateJunk;
  return [valueJunk[i % valueJunk.length]!, valueJunk[(i + 5) % valueJunk.length]!];
}

/** The fixed nasty bodies of one operation (the deterministic walk). */
function nastyBodies(target: Target): Omit<Hostile, 'method' | 'path'>[] {
  const f = target.fields[0]?.name ?? 'name';
  const json = 'application/json';
  const out: Omit<Hostile, 'method' | 'path'>[] = [];
  for (const [i, field] of target.fields.entries()) {
    const wrong = wrongValues(field.types);
    out.push({ kind: 'wrong-type', contentType: json, body: JSON.stringify({ [field.name]: wrong[i % wrong.length] }) });
  }
  out.push(
    { kind: 'huge-string', contentType: json, body: JSON.stringify({ [f]: 'x'.repeat(100_000) }) },
    { kind: 'deep-nesting', contentType: json, body: `{"${f}": ${deep(2000)}}` },
    { kind: 'raw-number', contentType: json, body: `{"${f}": 1e309}` },
    { kind: 'raw-number', contentType: json, body: `{"${f}": -0}` },
    { kind: 'fractional-pence', contentType: json, body: '{"amount": 10.5}' },
    { kind: 'proto-key', contentType: json, body: '{"__proto__": {"x": 1}}' },
    { kind: 'proto-key', contentType: json, body: '{"constructor": {"prototype": {"x": 1}}}' },
    { kind: 'invalid-utf8', contentType: json, body: utf8Bodies(f)[0]! },
    { kind: 'truncated-json', contentType: json, body: `{"${f}": "ab` },
    { kind: 'empty-body', contentType: json, body: '' },
    { kind: 'wrong-content-type', contentType: 'application/x-www-form-urlencoded', body: `${f}=1&x=2` },
    { kind: 'non-object', contentType: json, body: '[]' },
  );
  return out;
}

/** Values of the right type at the edges: years 0000 and 9999, the largest safe integers, NUL and a lone surrogate. */
function edgeValues(field: Field): unknown[] {
  if (field.date) return ['0000-01-01', '9999-12-31', '0999-12-31', '2024-02-29'];
  const out: unknown[] = [];
  if (field.types.has('integer') || field.types.has('number')) out.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, 2 ** 31);
  if (field.types.has('number')) out.push(1e308, 5e-324);
  if (field.types.has('string')) out.push('\u0000', '\ud800', '\u202e', ' ', 'x'.repeat(10_000));
  if (field.types.has('boolean')) out.push(true, false);
  if (field.types.has('array')) out.push([]);
  if (field.types.has('null')) out.push(null);
  return out.length > 0 ? out : [null];
}

/** fast-check's drawing of one nasty body for an operation. */
function bodyArb(target: Target): fc.Arbitrary<Omit<Hostile, 'method' | 'path'>> {
  const json = 'application/json';
  const names = target.fields.length > 0 ? target.fields.map((x) => x.name) : ['name'];
  const fieldArb = fc.constantFrom(...names);
  const withType = (kind: string, body: string | Uint8Array, contentType: string = json) => ({ kind, contentType, body });

  const wrongType =
    target.fields.length === 0
      ? fc.constant(withType('wrong-type', JSON.stringify({ name: 12 })))
      : fc
          .subarray([...target.fields], { minLength: 1, maxLength: Math.min(3, target.fields.length) })
          .chain((fs) => fc.tuple(...fs.map((x) => fc.constantFrom(...wrongValues(x.types)).map((v) => [x.name, v] as const))))
          .map((pairs) => withType('wrong-type', JSON.stringify(Object.fromEntries(pairs))));

  const edge =
    target.fields.length === 0
      ? fc.constant(withType('edge-value', '{}'))
      : fc
          .subarray([...target.fields], { minLength: 1, maxLength: Math.min(3, target.fields.length) })
          .chain((fs) => fc.tuple(...fs.map((x) => fc.constantFrom(...edgeValues(x)).map((v) => [x.name, v] as const))))
          .map((pairs) => withType('edge-value', JSON.stringify(Object.fromEntries(pairs))));

  return fc.oneof(
    { weight: 6, arbitrary: wrongType },
    { weight: 2, arbitrary: edge },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fieldArb, fc.constantFrom('x', 'é', '😀', '\u0000', '"'))
        .map(([x, c]) => withType('huge-string', JSON.stringify({ [x]: c.repeat(100_000) }))),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fieldArb, fc.constantFrom(2000, 50_000, 400_000), fc.constantFrom('[]', '{}'), fc.boolean()).map(([x, n, brackets, bare]) => {
        const nested = brackets === '[]' ? deep(n) : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
        return withType('deep-nesting', bare ? nested : `{"${x}": ${nested}}`);
      }),
    },
    { weight: 2, arbitrary: fc.tuple(fieldArb, fc.constantFrom(...numberTokens)).map(([x, n]) => withType('raw-number', `{"${x}": ${n}}`)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('amount', 'unitPrice', 'quantity', 'lines', 'items')
        .map((x) =>
          withType(
            'fractional-pence',
            x === 'lines'
              ? '{"lines": [{"amount": 10.5}, {"amount": -10.5}]}'
              : x === 'items'
                ? '{"items": [{"description": "a", "quantity": 1, "unitPrice": 0.5, "vatRate": "standard"}]}'
                : `{"${x}": 10.5}`,
          ),
        ),
    },
    { weight: 1, arbitrary: fieldArb.chain((x) => fc.constantFrom(...protoBodies(x))).map((b) => withType('proto-key', b)) },
    { weight: 1, arbitrary: fieldArb.chain((x) => fc.constantFrom(...utf8Bodies(x))).map((b) => withType('invalid-utf8', b)) },
    {
      weight: 1,
      arbitrary: fc.tuple(fieldArb, fc.nat()).map(([x, n]) => {
        const whole = JSON.stringify({ [x]: 'abc', lines: [1, 2], items: [{ a: null }] });
        return withType('truncated-json', whole.slice(0, 1 + (n % (whole.length - 1))));
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t').map((b) => withType('empty-body', b)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=latin1',
            '',
          ),
          fc.constantFrom('{"zzUnknown": 1}', 'a=1&b=2', '<?xml version="1.0"?><a/>', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'),
        )
        .map(([ct, b]) => withType('wrong-content-type', b, ct)),
    },
    { weight: 1, arbitrary: fc.constantFrom('[]', '"text"', '42', 'null', 'true', '[{}]', '{"zzUnknown": 1}').map((b) => withType('non-object', b)) },
  );
}

// ---------------------------------------------------------------------------

t.test('hostile input to every operation: below 500, an error envelope without a stack, and a refusal changes nothing', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);

  // Rows to aim at, so that some requests reach the handlers past the 404.
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await api.request(method, path, body === undefined ? {} : { body });
    assert.ok(r.status < 300, `setting up, ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const accounts = (await ok('GET', '/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
  const account = (code: string) => accounts.find((a) => a.code === code)!.id;
  const contact = await ok('POST', '/v1/contacts', { contactType: 'both', name: 'Hostile Testing Ltd' });
  const item = { description: 'Widgets', quantity: 2, unitPrice: 1500, vatRate: 'standard' };
  const realByPrefix = new Map<string, string>([
    ['acc', (await ok('POST', '/v1/accounts', { code: '5995', name: 'Fuzzing costs', accountType: 'expense' })).id],
    ['cont', contact.id],
    [
      'txn',
      (
        await ok('POST', '/v1/transactions', {
          date: '2026-06-01',
          description: 'Draft',
          status: 'draft',
          lines: [
            { accountId: account('1200'), amount: 1000 },
            { accountId: account('4000'), amount: -1000 },
          ],
        })
      ).id,
    ],
    ['inv', (await ok('POST', '/v1/invoices', { contactId: contact.id, items: [item] })).id],
    ['quo', (await ok('POST', '/v1/quotes', { contactId: contact.id, items: [item] })).id],
    ['bill', (await ok('POST', '/v1/bills', { contactId: contact.id, items: [item] })).id],
  ]);
  const targets = operations.map((op) => targetOf(op, realByPrefix));
  const harness = new Harness(api, books);
  const started = performance.now();

  // The walk: every operation, every fixed nasty input.
  const failures: string[] = [];
  const attempt = async (r: Hostile) => {
    try {
      await harness.run(r);
    } catch (e) {
      failures.push((e as Error).message);
    }
  };
  for (const target of targets) {
    const { op } = target;
    if (op.method !== 'GET') {
      for (const body of nastyBodies(target)) await attempt({ ...body, method: op.method, path: pathOf(target, target.wellFormed) });
    }
    const n = operations.indexOf(op);
    await attempt({ kind: 'junk-query', method: op.method, path: pathOf(target, target.wellFormed, junkQueries[n % junkQueries.length]) });
    for (const [i, key] of Object.keys(op.schemas.query.shape).entries()) {
      for (const value of queryJunk(key, n + i))
        await attempt({ kind: 'junk-query', method: op.method, path: pathOf(target, target.wellFormed, `${key}=${value}`) });
    }
    for (const [i, name] of target.params.entries()) {
      const edges = edgeIds.filter((id) => op.schemas.params.shape[name]?.safeParse(id).success);
      const bad = [0, 1].map((j) => malformedIds[(n * 2 + i + j) % malformedIds.length]!);
      for (const id of [...bad, ...edges]) {
        await attempt({ kind: bad.includes(id) ? 'malformed-id' : 'edge-id', method: op.method, path: pathOf(target, { ...target.wellFormed, [name]: id }) });
      }
    }
  }
  // Over the 1 MiB limit (fetch declares the length, so the server refuses before reading), as text and as bytes.
  const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
  await attempt({ kind: 'oversized', method: 'PUT', path: '/v1/organisation', contentType: 'application/json', body: big });
  await attempt({ kind: 'oversized', method: 'POST', path: '/v1/transactions', contentType: 'application/json', body: Buffer.from(big) });
  const walked = harness.sent;
  for (const f of failures.slice(0, 40)) t.fail(f);
  t.equal(failures.length, 0, `the walk: ${walked} requests over ${operations.length} operations, ${failures.length} broke a rule`);

  // The draw: fast-check picks an operation and combines hostile ids, queries and bodies.
  const request: fc.Arbitrary<Hostile> = fc.constantFrom(...targets).chain((target) => {
    const idArbs: fc.Arbitrary<Readonly<Record<string, string>>>[] = [fc.constant(target.wellFormed)];
    if (target.real) idArbs.push(fc.constant(target.real));
    if (target.params.length > 0) {
      idArbs.push(
        fc.tuple(fc.constantFrom(...target.params), fc.constantFrom(...malformedIds, ...edgeIds)).map(([name, bad]) => ({ ...target.wellFormed, [name]: bad })),
      );
    }
    const keys = Object.keys(target.op.schemas.query.shape);
    const keyJunk = fc
      .array(
        fc.constantFrom(...(keys.length > 0 ? keys : ['page'])).chain((k) => fc.constantFrom(...(isDateKey(k) ? dateJunk : valueJunk)).map((v) => `${k}=${v}`)),
        { minLength: 1, maxLength: 3 },
      )
      .map((q) => q.join('&'));
    const query = fc.oneof(
      { weight: 4, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.subarray(junkQueries, { minLength: 1, maxLength: 3 }).map((q) => q.join('&')) },
      { weight: 2, arbitrary: keyJunk },
    );
    const body = target.op.method === 'GET' ? fc.constant(null) : fc.option(bodyArb(target), { nil: null, freq: 8 });
    return fc.tuple(fc.oneof(...idArbs), query, body).map(([ids, q, b]): Hostile => {
      const path = pathOf(target, ids, q);
      if (b) return { ...b, kind: q ? `${b.kind}+junk-query` : b.kind, method: target.op.method, path };
      const values = Object.values(ids);
      const idKind = values.some((v) => malformedIds.includes(v)) ? 'malformed-id' : values.some((v) => edgeIds.includes(v)) ? 'edge-id' : '';
      return { kind: [idKind, q === '' ? '' : 'junk-query'].filter((k) => k !== '').join('+') || 'plain', method: target.op.method, path };
    });
  });

  t.comment(`fast-check seed ${seed}, ${numRuns} runs (replay: ACCT_FUZZ_SEED=${seed} ACCT_FUZZ_RUNS=${numRuns})`);
  const result = await fc.check(
    fc.asyncProperty(request, async (r) => {
      await harness.run(r);
    }),
    { seed, numRuns },
  );
  if (result.failed) t.fail(fc.defaultReportMessage(result) ?? 'the property failed');
  else t.pass(`${numRuns} drawn requests hold`);

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  t.comment(`${harness.sent} requests (${walked} walked, ${harness.sent - walked} drawn incl. shrinking) in ${seconds}s`);
  t.comment(
    `outcomes by kind:\n${[...harness.tally]
      .sort()
      .map(([k, n]) => `  ${k}: ${n}`)
      .join('\n')}`,
  );
  t.comment(
    `hostile-looking requests accepted (${harness.accepted.length}):\n${harness.accepted
      .slice(0, 60)
      .map((s) => `  ${s}`)
      .join('\n')}`,
  );
});
