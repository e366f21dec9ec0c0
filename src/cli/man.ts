/**
 * The man pages, built from the same sources as --help: acct(1) whole,
 * and the generated endpoint table inside the hand-written acct-api(7).
 * `npm run man` rewrites them; a test fails when they are stale.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorTable } from '../engine/errors.js';
import { operations } from '../engine/registry.js';
import { describeAccess, pathParams, type Operation } from '../engine/operation.js';
import { projectFile } from '../paths.js';
import { version } from '../version.js';
import { flagsOf, inFlagTerms } from './generate.js';
import { hasItems } from './item-flag.js';
import { dateRule, groupSummaries, handWritten, moneyRule, referenceRule, type CommandDoc } from './help.js';
import { groupExamples, operationExamples } from './examples.js';
import { globalOptionDocs } from './main.js';

/** Escape text for roff: backslashes, and a leading dot or quote. */
const esc = (s: string): string =>
  s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');

/** Examples as literal lines, indented. */
const exampleLines = (examples: readonly string[] = []): string[] => examples.flatMap((e) => ['.RS', '.nf', esc(e), '.fi', '.RE']);

function handWrittenSection(doc: CommandDoc): string[] {
  return ['.TP', `.B acct ${esc(doc.usage)}`, `${esc(doc.summary)}.`, esc(doc.description), ...exampleLines(doc.examples)];
}

function operationSection(op: Operation): string[] {
  const args = pathParams(op.path)
    .map((p) => ` ${p.toUpperCase()}`)
    .join('');
  const words = [op.cli.group, op.cli.action].filter(Boolean).join(' ');
  const flags = flagsOf(op);
  const lines = [
    '.TP',
    `.B acct ${esc(words)}${esc(args)}`,
    `${esc(inFlagTerms(op.summary, flags))}.`,
    `(${esc(op.method)} /v1${esc(op.path)}; ${esc(describeAccess(op.access))}.)`,
  ];
  if (op.description) lines.push(esc(inFlagTerms(op.description, flags, hasItems(op))));
  lines.push(...exampleLines(operationExamples[op.name]));
  if (flags.length > 0 || op.schemas.body) {
    lines.push('.RS');
    for (const f of flags) lines.push('.TP', `.B ${esc(f.flag)}`, esc(f.description || f.field));
    if (op.schemas.body)
      lines.push('.TP', '.B \\-\\-body JSON|@FILE|\\-', "The request body as JSON, amounts in the API's integer pence; flags override its fields.");
    lines.push('.RE');
  }
  return lines;
}

export function renderAcct1(): string {
  const groups = [...new Set(operations.map((o) => o.cli.group))];
  const exitCodes = new Map<number, string[]>();
  for (const [code, { exit }] of Object.entries(errorTable)) exitCodes.set(exit, [...(exitCodes.get(exit) ?? []), code]);
  return [
    `.TH ACCT 1 "" "acct ${version}" "acct manual"`,
    '.SH NAME',
    'acct \\- bookkeeping for UK sole traders and limited companies',
    '.SH SYNOPSIS',
    '.B acct',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIarguments\\fR] [\\fIflags\\fR]',
    '.SH DESCRIPTION',
    'acct keeps double\\-entry books in local SQLite files, one per organisation and mode (live and test), and',
    '.B acct serve',
    'offers the same engine as a JSON HTTP API under /v1 (see',
    '.BR acct\\-api (7)).',
    'Every API operation is also a command',
    '.BR "acct \\fIgroup\\fP \\fIaction\\fP" ,',
    'with path parameters as arguments and fields as kebab\\-case flags named after the API field',
    '(asOf becomes \\-\\-as\\-of).',
    '.PP',
    esc(moneyRule),
    '.PP',
    esc(referenceRule),
    '.PP',
    esc(dateRule),
    '.SH GLOBAL OPTIONS',
    ...globalOptionDocs.flatMap(([flag, text]) => ['.TP', `.B ${esc(flag)}`, esc(text)]),
    '.TP',
    '.B \\-V, \\-\\-version',
    'Print the version.',
    '.SH COMMANDS',
    ...Object.values(handWritten).flatMap(handWrittenSection),
    ...groups.flatMap((g) => [
      `.SS ${esc(g)}`,
      esc(groupSummaries[g] ?? ''),
      ...exampleLines(groupExamples[g]),
      // A signed payload's endpoint (the payment provider's events) is posted to by its sender: it has no command.
      ...operations.filter((o) => o.cli.group === g && !o.signed).flatMap(operationSection),
    ]),
    '.SH OUTPUT',
    'Without \\-\\-json, results print as tables. With \\-\\-json, standard output holds exactly the',
    'data member the API would return. Errors print their code and message on standard error',
    '(as JSON with \\-\\-json) and set the exit status.',
    '.SH EXIT STATUS',
    '.TP',
    '.B 0',
    'Success.',
    ...[...exitCodes.entries()].sort(([a], [b]) => a - b).flatMap(([exit, codes]) => ['.TP', `.B ${exit}`, esc(codes.join(', '))]),
    '.SH ENVIRONMENT',
    '.TP',
    '.B ACCT_DATA',
    'The data directory when \\-\\-data is not given.',
    '.TP',
    '.B PORT',
    'The default port of acct demo.',
    '.SH FILES',
    '.TP',
    '.I DATA/platform.sqlite',
    'Organisations, API keys (as hashes) and platform settings.',
    '.TP',
    '.I DATA/orgs/ID/live.sqlite, DATA/orgs/ID/test.sqlite',
    'The live and test books of one organisation.',
    '.SH SEE ALSO',
    '.BR acct\\-api (7)',
    '',
  ].join('\n');
}

export function renderEndpointTable(): string {
  return [
    '.TS',
    'l l l l.',
    'Method\tPath\tAccess\tCommand',
    ...operations.map(
      (o) =>
        `${o.method}\t/v1${o.path}\t${describeAccess(o.access)}\t${o.signed ? '(posted by the provider)' : `acct ${[o.cli.group, o.cli.action].filter(Boolean).join(' ')}`}`,
    ),
    '.TE',
  ].join('\n');
}

const begin = '.\\" BEGIN GENERATED ENDPOINTS';
const end = '.\\" END GENERATED ENDPOINTS';

/** acct-api(7) with its generated endpoint table brought up to date. */
export function refreshAcctApi7(page: string): string {
  const from = page.indexOf(begin);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error('acct-api.7 lacks its generated endpoints markers');
  return `${page.slice(0, from + begin.length)}\n${renderEndpointTable()}\n${page.slice(to)}`;
}

export const manDir = projectFile('man/');

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1]) && process.argv.includes('--write')) {
  fs.writeFileSync(new URL('acct.1', manDir), renderAcct1());
  const api = new URL('acct-api.7', manDir);
  fs.writeFileSync(api, refreshAcctApi7(fs.readFileSync(api, 'utf8')));
  console.log('man/acct.1 and man/acct-api.7 written');
}
