/**
 * CLI commands generated from the operation registry: `acct <group> <action>`,
 * path parameters as arguments, query and body fields as kebab-case flags
 * named after the API's fields, and any body as `--body`. A money field
 * (pence() in its schema) is a flag in pounds, turned into the API's pence
 * here at the edge; --body stays the API's JSON, in pence.
 */
import fs from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { AppError } from '../engine/errors.js';
import { coerceText, isPence, jsonSchemaOf, typesOf, type JsonSchema, type RawInput } from '../engine/input.js';
import { parsePounds } from '../engine/money.js';
import { fileText } from '../engine/tabular/file-text.js';
import { pathParams, type Operation, type Result } from '../engine/operation.js';
import { checkOutput, readBodyArgument, withCli, writeFileResult, type Cli, type GlobalOptions } from './context.js';
import { hasItems, itemFlagHelp, itemPartWords, parseItemFlag } from './item-flag.js';
import { groupSummaries } from './help.js';
import { examplesSection, groupExamples, operationExamples } from './examples.js';
import { AcctOption, addsUp, flagNames, hiddenAlias } from './command.js';
import { flagDoc } from './flag-docs.js';
import { withoutPence } from './money-columns.js';
import { renderCsv, renderTable } from './presenters/index.js';
import { presenterOf } from './presenters/registry.js';
import { naturalKeyHelp, resolveNaturalKeys } from './references.js';
import { expandDates } from './date-flags.js';
import { pageFooter } from './render.js';
import { tableWidth } from './fit-table.js';
import { hasMoreAfter, pageSizeField, perPageMeta, type PageMeta, type PerPageMeta } from '../engine/pagination.js';

export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Option names the program itself uses; a field with one of these names is set through --body. */
const reserved = new Set(['data', 'org', 'test', 'json', 'wide', 'csv', 'body', 'help', 'version']);

export interface Flag {
  readonly field: string;
  /** The flag as help shows it: `--from <date>`, `--flat [bool]`. */
  readonly flag: string;
  /** Its name and then its older names, hidden from help (`from`, `from-date`). */
  readonly names: readonly string[];
  readonly part: 'query' | 'body';
  readonly description: string;
  readonly boolean: boolean;
  /** A list (comma-separated): given more than once, the values add up (--scopes a --scopes b is a,b) rather than the last one winning. */
  readonly list: boolean;
  /** Money: the flag takes pounds (450.00, 1,234.56, £1,234.56) and the API gets pence. */
  readonly pounds: boolean;
  /** Whether `null` clears the field. */
  readonly nullable: boolean;
  /** A value it takes, as typed (null for a boolean, or when none can be made). */
  readonly example: string | null;
  /** The values of an enum, for completion. */
  readonly values: readonly string[];
}

const bodyHelp = 'the request body as JSON (amounts in integer pence, as the API takes them), @file.json, or - for standard input; e.g. @invoice.json';

/** The flags of an operation: one per query or body field that a flag can carry. */
export function flagsOf(op: Operation): Flag[] {
  const flags: Flag[] = [];
  const query = jsonSchemaOf(op.schemas.query).properties ?? {};
  const body = op.schemas.body ? (jsonSchemaOf(op.schemas.body).properties ?? {}) : {};
  const taken = new Set([...Object.keys(query), ...Object.keys(body)].map(kebab));
  const add = (props: Record<string, JsonSchema>, part: Flag['part']) => {
    for (const [field, prop] of Object.entries(props)) {
      const types = typesOf(prop);
      const itemsAreObjects = types.has('array') && typesOf(prop.items).has('object');
      if (reserved.has(field) || types.has('object') || itemsAreObjects) continue;
      const boolean = types.has('boolean');
      const pounds = isPence(prop);
      const file = part === 'body' && op.upload?.field === field;
      const doc = flagDoc(field, prop, types, pounds);
      // A pounds flag drops the API's unit (--amount for amountPence), its old name hidden.
      const bare = withoutPence(field, pounds);
      const renamed = flagNames[field] ?? (bare === field ? undefined : kebab(bare));
      const names = renamed !== undefined && !taken.has(renamed) ? [renamed, kebab(field)] : [kebab(field)];
      flags.push({
        field,
        part,
        boolean,
        list: types.has('array'),
        pounds,
        nullable: types.has('null'),
        names,
        flag: boolean ? `--${names[0]} [bool]` : `--${names[0]} <${file ? 'path' : doc.placeholder}>`,
        description: file ? 'the file to upload (- for standard input); e.g. statement.csv' : doc.description,
        example: file ? 'statement.csv' : doc.example,
        values: doc.values,
      });
    }
  };
  add(query, 'query');
  add(body, 'body');
  return flags;
}

/**
 * An operation's summary or notes as the command line reads them: a field
 * that a flag carries is named by the flag (accountId → --account-id), and a
 * boolean's "sendEmail true" is its flag alone. Only camelCase names change,
 * for a one-word field (amount, date) reads as English in a sentence; so does
 * nothing inside braces, a JSON body written out, which --body takes as it is.
 */
export function inFlagTerms(text: string, flags: readonly Flag[], items = false): string {
  const money = inPounds(text, flags, items);
  const named = flags.filter((f) => /[A-Z]/.test(f.field));
  if (named.length === 0) return money;
  return money
    .split(/(\{[^}]*\})/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : named.reduce((out, f) => out.replace(new RegExp(`\\b${f.field}\\b${f.boolean ? '(?: true\\b)?' : ''}`, 'g'), `--${f.names[0]}`), part),
    )
    .join('');
}

/**
 * The API's notes give a money field's unit as it takes it, "amount (pence, …)";
 * the command line takes that field in pounds, as a flag or as the price in
 * --item (`items` true), so its help says pounds. --body keeps pence, as its
 * own help says.
 */
function inPounds(text: string, flags: readonly Flag[], items: boolean): string {
  const fields = [...flags.filter((f) => f.pounds).map((f) => f.field), ...(items ? ['unitPrice'] : [])];
  return fields.reduce((out, field) => out.replace(new RegExp(`\\b${field} \\(pence\\b`, 'g'), `${field} (pounds`), text);
}

/** Commander's attribute for a long flag name: `as-of-date` → asOfDate. */
const attributeOf = (name: string): string => name.split('-').reduce((out, word) => out + (word[0] ?? '').toUpperCase() + word.slice(1));

/** The name and value of a flag as given on the command line, by whichever of its names; undefined when not given. */
function given(options: Record<string, unknown>, f: Flag): { name: string; value: unknown } | undefined {
  for (const name of f.names) {
    const value = options[attributeOf(name)];
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/** A flag's value as the API takes it: pounds become pence (`null` clears a nullable amount); the rest is text for coerceText. */
function valueOf(f: Flag, value: unknown): unknown {
  if (!f.pounds || typeof value !== 'string' || (f.nullable && value === 'null')) return value;
  return parsePounds(value, f.field);
}

function pick(options: Record<string, unknown>, flags: readonly Flag[], part: Flag['part']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of flags) {
    const value = given(options, f)?.value;
    if (f.part === part && value !== undefined) out[f.field] = valueOf(f, value);
  }
  return out;
}

function commandFor(parent: Command, op: Operation, operations: readonly Operation[]): Command {
  const cmd = op.cli.action === null ? parent : parent.command(op.cli.action);
  const flags = flagsOf(op);
  cmd.description(inFlagTerms(op.summary, flags));
  if (op.description) cmd.addHelpText('after', `\n${inFlagTerms(op.description, flags, hasItems(op))}`);
  const examples = operationExamples[op.name];
  if (examples) cmd.addHelpText('after', examplesSection(examples));
  const paramProps = jsonSchemaOf(op.schemas.params).properties ?? {};
  for (const p of pathParams(op.path)) cmd.argument(`<${p}>`, naturalKeyHelp(paramProps[p]) ?? '');
  for (const f of flags) {
    const option = new AcctOption(f.flag, f.description).withValues(f.values);
    if (f.list) option.argParser(addsUp);
    cmd.addOption(option);
    for (const old of f.names.slice(1)) cmd.addOption(hiddenAlias(f.flag.replace(`--${f.names[0]}`, `--${old}`), option));
  }
  if (op.schemas.body) cmd.option('--body <json>', bodyHelp);
  const itemFlag = hasItems(op);
  if (itemFlag) cmd.option('--item <item>', itemFlagHelp(op), (value: string, list: string[] = []) => [...list, value]);
  if (op.produces) {
    cmd.option(
      '-o, --output <file>',
      'where to write the document, required (- for standard output): acct never names the file after the document; e.g. invoice.pdf',
    );
    cmd.option('--force', 'overwrite the -o file if it exists');
  }
  const presenter = presenterOf(op);
  if (presenter) cmd.option('--csv', 'print CSV (amounts in pounds) instead of a table');
  const preview = op.dryRun === null ? undefined : operations.find((o) => o.name === op.dryRun);
  if (op.dryRun !== null && !preview) throw new Error(`${op.name}: its dryRun operation ${op.dryRun} is not in the registry`);
  if (preview) cmd.option('--dry-run', 'show what it would do (the journal and checks) without doing it');
  cmd.action(async (...args: unknown[]) => {
    const self = args[args.length - 1] as Command;
    const globals = self.optsWithGlobals<GlobalOptions>();
    const options = self.opts<Record<string, unknown>>();
    let sent: Record<string, unknown> = {};
    const typed = typedName(op, flags, options, () => sent, itemFlag);
    await withCli(globals, async (cli) => {
      try {
        const params = Object.fromEntries(pathParams(op.path).map((p, i) => [p, String(args[i])]));
        let body: unknown;
        if (op.schemas.body) {
          const given = options['body'];
          const parsed = typeof given === 'string' ? readBodyArgument(given) : {};
          if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
            throw new AppError('validation_error', 'the request body must be a JSON object', 'body');
          }
          sent = parsed as Record<string, unknown>;
          body = { ...sent, ...coerceText(op.schemas.body, pick(options, flags, 'body')) };
          if (op.upload) body = readUploadFlag(body as Record<string, unknown>, op.upload);
          if (itemFlag && options['item'] !== undefined) body = { ...(body as object), items: (options['item'] as string[]).map(parseItemFlag) };
        }
        const output = options['output'] as string | undefined;
        const force = options['force'] === true;
        if (op.produces) checkOutput(output, force);
        await runGenerated(cli, op, { params, query: pick(options, flags, 'query'), body }, { typed, options, presenter, preview, output, force });
      } catch (e) {
        throw namedAsTyped(e, typed);
      }
    });
  });
  return cmd;
}

/**
 * Turns a field's path in an error (`contactId`, `items`, `items[1].quantity`, a
 * path parameter) into what the person typed or should type: `--contact-id`,
 * `--item`, `--item 2 quantity`, `<id>`. A field sent inside --body keeps the
 * API's name, as that is what was typed.
 */
function typedName(
  op: Operation,
  flags: readonly Flag[],
  options: Record<string, unknown>,
  sent: () => Record<string, unknown>,
  itemFlag: boolean,
): (path: string) => string {
  return (path) => {
    if (pathParams(op.path).includes(path)) return `<${path}>`;
    if (path === 'body') return '--body';
    if (path === 'output') return '-o';
    const flag = flags.find((f) => f.field === path);
    if (flag) {
      const named = given(options, flag);
      if (named) return `--${named.name}`;
      return path in sent() ? path : `--${flag.names[0]}`;
    }
    if (!itemFlag || (options['item'] === undefined && 'items' in sent())) return path;
    if (path === 'items') return '--item';
    const item = /^items\[(\d+)\](?:\.(\w+))?/.exec(path);
    if (item && options['item'] !== undefined) return `--item ${Number(item[1]) + 1}${item[2] ? ` ${itemPartWords[item[2]] ?? item[2]}` : ''}`;
    return path;
  };
}

/**
 * For a hand-written command: a refusal whose field is one of the API's names
 * (`asOf`) thrown again named by the flag typed (`--as-of`). Use with `.catch`.
 */
export function refusedAsTyped(flags: Readonly<Record<string, string>>): (e: unknown) => never {
  return (e) => {
    throw namedAsTyped(e, (path) => flags[path] ?? path);
  };
}

/** An error whose field is an API path, renamed as typed: its field, and its message where it starts with the field. */
function namedAsTyped(e: unknown, typed: (path: string) => string): unknown {
  if (!(e instanceof AppError) || e.field === undefined) return e;
  const name = typed(e.field);
  if (name === e.field) return e;
  const rest = e.message.slice(e.field.length);
  // A range's refusal names its other end too: "from (…) is after to (…)".
  const message = (e.message.startsWith(e.field) && !/^[\w.[]/.test(rest) ? `${name}${rest}` : e.message).replace(
    / is after (\w+) \(/,
    (_, other: string) => ` is after ${typed(other)} (`,
  );
  return new AppError(e.code, message, name, { cause: e.cause });
}

interface RunOptions {
  readonly typed: (path: string) => string;
  readonly options: Record<string, unknown>;
  readonly presenter: ReturnType<typeof presenterOf>;
  readonly preview: Operation | undefined;
  readonly output: string | undefined;
  readonly force: boolean;
}

/** Run a generated command's operation on its input, and print or write the result. */
async function runGenerated(cli: Cli, op: Operation, given: RawInput, { typed, options, presenter, preview, output, force }: RunOptions): Promise<void> {
  const globals = cli.globals;
  const raw = await expandDates(cli, op, await resolveNaturalKeys(cli, op, given, typed), typed);
  // A report paged by cursor (the general ledger) is shown whole, unless one page is asked for with --cursor.
  const join = presenter?.join;
  if (preview && options['dryRun'] === true) {
    cli.print((await cli.run(preview, raw)).data, undefined, preview);
    return;
  }
  // A list paged by number is shown whole unless --page or --limit asks for one page, which --json then prints with its meta.
  const size = pageSizeField(op.schemas.meta);
  const onePage = size !== null && (raw.query['page'] !== undefined || raw.query[size] !== undefined);
  const wholeList = size !== null && !onePage;
  if (wholeList && globals.json && isArrayOutput(op)) {
    await streamEveryNumberedPage(cli, op, raw);
    return;
  }
  const result =
    join && raw.query['cursor'] === undefined
      ? await everyPage(cli, op, raw, join)
      : wholeList
        ? await everyNumberedPage(cli, op, raw)
        : await cli.run(op, raw);
  if (result.file) {
    const written = writeFileResult(result.file, output, force);
    if (written !== null) cli.print({ ...(result.data as object), file: written }, undefined, op);
  } else if (presenter && !globals.json && options['csv']) process.stdout.write(renderCsv(presenter.present(result.data)));
  else if (presenter && !globals.json) process.stdout.write(renderTable(presenter.present(result.data), tableWidth(globals.wide)) + pageFooter(result.meta));
  else if (onePage && globals.json) cli.print({ data: result.data, meta: result.meta }, undefined, op);
  else if (globals.json && op.method === 'GET' && listWrapper(result.data) !== null) cli.print(listWrapper(result.data), undefined, op);
  else cli.print(result.data, result.meta, op);
}

/** The largest page an operation's limit (or perPage) allows, when it says. */
function largestPage(op: Operation): number | undefined {
  const largest = jsonSchemaOf(op.schemas.query).properties?.[pageSizeField(op.schemas.meta) ?? 'limit']?.maximum;
  return typeof largest === 'number' ? largest : undefined;
}

/** Every page of a report paged by cursor, joined, with the last page's meta; pages as large as the operation allows unless --limit says. */
async function everyPage(cli: Cli, op: Operation, raw: RawInput, join: (pages: readonly unknown[]) => unknown): Promise<Result> {
  const largest = largestPage(op);
  const query = raw.query['limit'] === undefined && largest !== undefined ? { ...raw.query, limit: String(largest) } : raw.query;
  let result = await cli.run(op, { ...raw, query });
  const pages = [result.data];
  for (let next = nextCursorOf(result.meta); next !== null; next = nextCursorOf(result.meta)) {
    result = await cli.run(op, { ...raw, query: { ...query, cursor: next } });
    pages.push(result.data);
  }
  return { data: join(pages), meta: result.meta };
}

/**
 * Every page of a list paged by number, as large as the operation allows,
 * joined: the rows of all, and a meta saying they are all. A record paged
 * by one list of it (an account's ledger: its entries) keeps the first
 * page's other fields, which cover the whole range, and joins that list.
 */
export async function everyNumberedPage(cli: Cli, op: Operation, raw: RawInput): Promise<Result> {
  const limit = String(largestPage(op) ?? 100);
  const size = pageSizeField(op.schemas.meta) ?? 'limit';
  const rows: unknown[] = [];
  let first: Result | undefined;
  for (let page = 1; ; page++) {
    const result = await cli.run(op, { ...raw, query: { ...raw.query, page: String(page), [size]: limit } });
    first ??= result;
    const list = Array.isArray(result.data) ? (result.data as unknown[]) : (pagedListOf(result.data)?.[1] ?? null);
    if (list === null) return result;
    rows.push(...list);
    const meta = result.meta as PageMeta | PerPageMeta;
    if (!hasMoreAfter(meta)) {
      const whole =
        size === 'perPage' ? perPageMeta(meta.total, 1, Math.max(1, rows.length)) : { total: meta.total, page: 1, limit: rows.length, hasMore: false };
      if (Array.isArray(first.data)) return { data: rows, meta: whole };
      return { data: { ...(first.data as object), [pagedListOf(first.data)![0]]: rows }, meta: whole };
    }
  }
}

/** The one list field of a record paged by number, as [field, rows]; null when it has none or several. */
function pagedListOf(data: unknown): [string, unknown[]] | null {
  if (data === null || typeof data !== 'object') return null;
  const lists = Object.entries(data).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
  return lists.length === 1 ? lists[0]! : null;
}

/**
 * Every page of a list paged by number under --json, printed as it is
 * read: one JSON array, as JSON.stringify(rows, null, 2) would print it
 * whole, without holding every row.
 */
async function streamEveryNumberedPage(cli: Cli, op: Operation, raw: RawInput): Promise<void> {
  const limit = String(largestPage(op) ?? 100);
  const size = pageSizeField(op.schemas.meta) ?? 'limit';
  let first = true;
  for (let page = 1; ; page++) {
    const result = await cli.run(op, { ...raw, query: { ...raw.query, page: String(page), [size]: limit } });
    const rows = Array.isArray(result.data) ? (result.data as unknown[]) : [];
    let text = '';
    for (const row of rows) {
      text += `${first ? '[\n  ' : ',\n  '}${JSON.stringify(row, null, 2).replace(/\n/g, '\n  ')}`;
      first = false;
    }
    if (text !== '' && !process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    if (!hasMoreAfter(result.meta as PageMeta | PerPageMeta)) break;
  }
  process.stdout.write(first ? '[]\n' : '\n]\n');
}

const isArrayOutput = (op: Operation): boolean => op.schemas.output instanceof z.ZodArray;

/**
 * The list inside a list's data that the API wraps in an object
 * ({accounts: […], meta}, {periods: […]}, {rules: […], total}): under --json
 * the CLI prints every list as an array, whichever way the API wraps it. A
 * `total` beside the list counts only when it is the list's length (it
 * says nothing the array does not). Null for any other data.
 */
function listWrapper(data: unknown): unknown[] | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => k !== 'meta' && k !== 'total');
  const only = keys.length === 1 ? record[keys[0]!] : undefined;
  if (!Array.isArray(only)) return null;
  return !('total' in record) || record['total'] === only.length ? only : null;
}

const nextCursorOf = (meta: unknown): string | null => {
  const next = (meta as { nextCursor?: unknown } | undefined)?.nextCursor;
  return typeof next === 'string' ? next : null;
};

/**
 * Add a command for every operation, grouped as `acct <group> <action>`.
 * With `only`, the operations of the other groups get their group command
 * and summary but no subcommands or flags: a run names one group, and
 * deriving every other operation's flags from its schema is most of the
 * start-up of a short command. Help without a group builds them all.
 */
export function addOperationCommands(program: Command, operations: readonly Operation[], only?: string): void {
  for (const op of operations) {
    if (op.cli.custom) continue;
    let group = program.commands.find((c) => c.name() === op.cli.group);
    if (!group) {
      group = program.command(op.cli.group);
      if (op.cli.action !== null) group.description(groupSummaries[op.cli.group] ?? `${op.cli.group} operations`);
    }
    if (only === undefined || op.cli.group === only) commandFor(group, op, operations);
    else if (op.cli.action === null) group.description(op.summary);
  }
  // Every group's examples, those of the groups that hand-written commands made (bank, vat) too.
  for (const group of program.commands) {
    const examples = groupExamples[group.name()];
    if (examples) group.addHelpText('after', examplesSection(examples));
  }
}

/** An upload's flag names a file (or - for standard input): the body gets its text, and its name unless one was given. */
function readUploadFlag(body: Record<string, unknown>, upload: NonNullable<Operation['upload']>): Record<string, unknown> {
  const path = body[upload.field];
  if (typeof path !== 'string') return body;
  let text: string;
  try {
    text = fileText(fs.readFileSync(path === '-' ? 0 : path));
  } catch (e) {
    throw new AppError('validation_error', `--${kebab(upload.field)}: cannot read ${path}: ${(e as Error).message}`, upload.field);
  }
  return { ...body, [upload.field]: text, ...(body[upload.filename] === undefined && path !== '-' ? { [upload.filename]: basename(path) } : {}) };
}
