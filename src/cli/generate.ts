/**
 * CLI commands generated from the operation registry: `acct <group> <action>`,
 * path parameters as arguments, query and body fields as kebab-case flags
 * named after the API's fields, and any body as `--body`. A money field
 * (pence() in its schema) is a flag in pounds, turned into the API's pence
 * here at the edge; --body stays the API's JSON, in pence.
 */
import fs from 'node:fs';
import { basename } from 'node:path';
import { Command, Option } from 'commander';
import { z } from 'zod';
import { AppError } from '../engine/errors.js';
import { coerceText, isPence, jsonSchemaOf, typesOf, type JsonSchema, type RawInput } from '../engine/input.js';
import { formatPounds, parsePounds } from '../engine/money.js';
import { pathParams, type Operation, type Result } from '../engine/operation.js';
import { checkOutput, readBodyArgument, withCli, writeFileResult, type Cli, type GlobalOptions } from './context.js';
import { hasItems, itemFlagHelp, parseItemFlag } from './item-flag.js';
import { groupSummaries } from './help.js';
import { renderCsv, renderTable } from './presenters/index.js';
import { presenterOf } from './presenters/registry.js';
import { naturalKeyHelp, resolveNaturalKeys } from './references.js';
import { dateHelp, expandDates, isDateProp } from './date-flags.js';
import { pageFooter } from './render.js';
import { tableWidth } from './fit-table.js';
import { pageMetaSchema, type PageMeta } from '../engine/pagination.js';

export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Option names the program itself uses; a field with one of these names is set through --body. */
const reserved = new Set(['data', 'org', 'test', 'json', 'wide', 'csv', 'body', 'help', 'version']);

export interface Flag {
  readonly field: string;
  readonly flag: string;
  readonly part: 'query' | 'body';
  readonly description: string;
  readonly boolean: boolean;
  /** Money: the flag takes pounds (450.00, 1,234.56, £1,234.56) and the API gets pence. */
  readonly pounds: boolean;
  /** Whether `null` clears the field. */
  readonly nullable: boolean;
}

const poundsHelp = 'amount in pounds, such as 450.00';
const bodyHelp = 'the request body as JSON (amounts in integer pence, as the API takes them), @file.json, or - for standard input';

function describe(field: string, prop: JsonSchema, types: Set<string>, pounds: boolean): string {
  const words: string[] = [];
  if (prop.description) words.push(prop.description);
  if (isDateProp(prop)) words.push(dateHelp(field));
  const key = naturalKeyHelp(prop);
  if (key !== null) words.push(key);
  const enumValues = prop.enum ?? prop.anyOf?.flatMap((s) => s.enum ?? []);
  if (pounds) words.push(poundsHelp);
  else if (enumValues && enumValues.length > 0) words.push(`one of ${enumValues.join(', ')}`);
  else if (types.has('integer')) words.push('integer');
  else if (types.has('number')) words.push('number');
  else if (types.has('array')) words.push('comma-separated list');
  if (prop.default !== undefined)
    words.push(`default ${pounds && typeof prop.default === 'number' ? formatPounds(prop.default) : JSON.stringify(prop.default)}`);
  return words.join('; ');
}

/** The flags of an operation: one per query or body field that a flag can carry. */
export function flagsOf(op: Operation): Flag[] {
  const flags: Flag[] = [];
  const add = (schema: JsonSchema, part: Flag['part']) => {
    for (const [field, prop] of Object.entries(schema.properties ?? {})) {
      const types = typesOf(prop);
      const itemsAreObjects = types.has('array') && typesOf(prop.items).has('object');
      if (reserved.has(field) || types.has('object') || itemsAreObjects) continue;
      const boolean = types.has('boolean');
      const pounds = isPence(prop);
      const file = part === 'body' && op.upload?.field === field;
      flags.push({
        field,
        part,
        boolean,
        pounds,
        nullable: types.has('null'),
        flag: boolean ? `--${kebab(field)} [bool]` : `--${kebab(field)} <${pounds ? 'pounds' : file ? 'path' : 'value'}>`,
        description: file ? 'the file to upload (- for standard input)' : describe(field, prop, types, pounds),
      });
    }
  };
  add(jsonSchemaOf(op.schemas.query), 'query');
  if (op.schemas.body) add(jsonSchemaOf(op.schemas.body), 'body');
  return flags;
}

/** A flag's value as the API takes it: pounds become pence (`null` clears a nullable amount); the rest is text for coerceText. */
function valueOf(f: Flag, value: unknown): unknown {
  if (!f.pounds || typeof value !== 'string' || (f.nullable && value === 'null')) return value;
  return parsePounds(value, f.field);
}

function pick(options: Record<string, unknown>, flags: readonly Flag[], part: Flag['part']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of flags) {
    if (f.part === part && options[f.field] !== undefined) out[f.field] = valueOf(f, options[f.field]);
  }
  return out;
}

function commandFor(parent: Command, op: Operation, operations: readonly Operation[]): Command {
  const cmd = op.cli.action === null ? parent : parent.command(op.cli.action);
  cmd.description(op.summary);
  if (op.description) cmd.addHelpText('after', `\n${op.description}`);
  const paramProps = jsonSchemaOf(op.schemas.params).properties ?? {};
  for (const p of pathParams(op.path)) cmd.argument(`<${p}>`, naturalKeyHelp(paramProps[p]) ?? '');
  const flags = flagsOf(op);
  for (const f of flags) cmd.addOption(new Option(f.flag, f.description));
  if (op.schemas.body) cmd.option('--body <json>', bodyHelp);
  const itemFlag = hasItems(op);
  if (itemFlag) cmd.option('--item <item>', itemFlagHelp, (value: string, list: string[] = []) => [...list, value]);
  if (op.produces) {
    cmd.option('-o, --output <file>', 'where to write the document, required (- for standard output): acct never names the file after the document');
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
    await withCli(globals, async (cli) => {
      const options = self.opts<Record<string, unknown>>();
      const params = Object.fromEntries(pathParams(op.path).map((p, i) => [p, String(args[i])]));
      let body: unknown;
      if (op.schemas.body) {
        const given = options['body'];
        const sent = typeof given === 'string' ? readBodyArgument(given) : {};
        if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) {
          throw new AppError('validation_error', 'the request body must be a JSON object', 'body');
        }
        body = { ...sent, ...coerceText(op.schemas.body, pick(options, flags, 'body')) };
        if (op.upload) body = readUploadFlag(body as Record<string, unknown>, op.upload);
        if (itemFlag && options['item'] !== undefined) body = { ...(body as object), items: (options['item'] as string[]).map(parseItemFlag) };
      }
      const output = options['output'] as string | undefined;
      const force = options['force'] === true;
      if (op.produces) checkOutput(output, force);
      const typed = (path: string): string => {
        if (pathParams(op.path).includes(path)) return `<${path}>`;
        const flag = flags.find((f) => f.field === path);
        if (flag && options[flag.field] !== undefined) return `--${kebab(flag.field)}`;
        const item = /^items\[(\d+)\]\./.exec(path);
        if (item && options['item'] !== undefined) return `--item ${Number(item[1]) + 1}`;
        return path;
      };
      const raw = await expandDates(cli, op, await resolveNaturalKeys(cli, op, { params, query: pick(options, flags, 'query'), body }, typed), typed);
      // A report paged by cursor (the general ledger) is shown whole, unless one page is asked for with --cursor.
      const join = presenter?.join;
      if (preview && options['dryRun'] === true) {
        cli.print((await cli.run(preview, raw)).data, undefined, preview);
        return;
      }
      // A list paged by number is shown whole unless --page or --limit asks for one page, which --json then prints with its meta.
      const onePage = op.schemas.meta === pageMetaSchema && (raw.query['page'] !== undefined || raw.query['limit'] !== undefined);
      const wholeList = op.schemas.meta === pageMetaSchema && !onePage;
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
      else if (presenter && !globals.json)
        process.stdout.write(renderTable(presenter.present(result.data), tableWidth(globals.wide)) + pageFooter(result.meta));
      else if (onePage && globals.json) cli.print({ data: result.data, meta: result.meta }, undefined, op);
      else if (globals.json && op.method === 'GET' && listWrapper(result.data) !== null) cli.print(listWrapper(result.data), undefined, op);
      else cli.print(result.data, result.meta, op);
    });
  });
  return cmd;
}

/** Every page of a report paged by cursor, joined, with the last page's meta; pages as large as the operation allows unless --limit says. */
async function everyPage(cli: Cli, op: Operation, raw: RawInput, join: (pages: readonly unknown[]) => unknown): Promise<Result> {
  const largest = jsonSchemaOf(op.schemas.query).properties?.['limit']?.maximum;
  const query = raw.query['limit'] === undefined && typeof largest === 'number' ? { ...raw.query, limit: String(largest) } : raw.query;
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
async function everyNumberedPage(cli: Cli, op: Operation, raw: RawInput): Promise<Result> {
  const largest = jsonSchemaOf(op.schemas.query).properties?.['limit']?.maximum;
  const limit = String(typeof largest === 'number' ? largest : 100);
  const rows: unknown[] = [];
  let first: Result | undefined;
  for (let page = 1; ; page++) {
    const result = await cli.run(op, { ...raw, query: { ...raw.query, page: String(page), limit } });
    first ??= result;
    const list = Array.isArray(result.data) ? (result.data as unknown[]) : (pagedListOf(result.data)?.[1] ?? null);
    if (list === null) return result;
    rows.push(...list);
    const meta = result.meta as PageMeta;
    if (!meta.hasMore) {
      const whole = { total: meta.total, page: 1, limit: rows.length, hasMore: false };
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
  const largest = jsonSchemaOf(op.schemas.query).properties?.['limit']?.maximum;
  const limit = String(typeof largest === 'number' ? largest : 100);
  let first = true;
  for (let page = 1; ; page++) {
    const result = await cli.run(op, { ...raw, query: { ...raw.query, page: String(page), limit } });
    const rows = Array.isArray(result.data) ? (result.data as unknown[]) : [];
    let text = '';
    for (const row of rows) {
      text += `${first ? '[\n  ' : ',\n  '}${JSON.stringify(row, null, 2).replace(/\n/g, '\n  ')}`;
      first = false;
    }
    if (text !== '' && !process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    if (!(result.meta as PageMeta).hasMore) break;
  }
  process.stdout.write(first ? '[]\n' : '\n]\n');
}

const isArrayOutput = (op: Operation): boolean => op.schemas.output instanceof z.ZodArray;

/**
 * The list inside a list's data that the API wraps in an object
 * ({accounts: […], meta}, {periods: […]}): under --json the CLI prints
 * every list as an array, whichever way the API wraps it. Null for any
 * other data.
 */
function listWrapper(data: unknown): unknown[] | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const keys = Object.keys(data).filter((k) => k !== 'meta');
  const only = keys.length === 1 ? (data as Record<string, unknown>)[keys[0]!] : undefined;
  return Array.isArray(only) ? only : null;
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
}

/** An upload's flag names a file (or - for standard input): the body gets its text, and its name unless one was given. */
function readUploadFlag(body: Record<string, unknown>, upload: NonNullable<Operation['upload']>): Record<string, unknown> {
  const path = body[upload.field];
  if (typeof path !== 'string') return body;
  let text: string;
  try {
    text = fs.readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw new AppError('validation_error', `--${kebab(upload.field)}: cannot read ${path}: ${(e as Error).message}`, upload.field);
  }
  return { ...body, [upload.field]: text, ...(body[upload.filename] === undefined && path !== '-' ? { [upload.filename]: basename(path) } : {}) };
}
