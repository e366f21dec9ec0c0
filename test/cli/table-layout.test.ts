/**
 * Tables are laid out by padLayout in one pass, to the table package's
 * layout: the two give the same text for the same cells (colour codes,
 * wide characters, accents, money aligned right, empty cells); the package
 * stays the reference here, no longer loaded by the CLI. The one
 * difference: a line has no blanks after its last cell, where the package
 * pads it (the reference's lines are trimmed to compare).
 */
import t from 'tap';
import chalk from 'chalk';
import { createRequire } from 'node:module';
import { plainTable } from '../../src/cli/render.js';

const { table, getBorderCharacters } = createRequire(import.meta.url)('table') as typeof import('table');
const byTable = (data: string[][], right: number[]) =>
  trimmedLines(
    table(data, {
      border: getBorderCharacters('void'),
      columnDefault: { paddingLeft: 0, paddingRight: 2 },
      columns: Object.fromEntries(right.map((i) => [i, { alignment: 'right' as const }])),
      drawHorizontalLine: () => false,
    }),
  );
const trimmedLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');

chalk.level = 1;
const samples: [string, string[][], number[]][] = [
  [
    'plain',
    [
      ['code', 'name'],
      ['1200', 'Bank Account'],
      ['4000', 'Sales'],
    ],
    [],
  ],
  [
    'colour, money right',
    [
      [chalk.bold('date'), chalk.bold('description'), chalk.bold('amount')],
      ['2024-01-02', 'CARD PAYMENT TO TESCO', '-1,234.56'],
      ['2024-01-03', chalk.dim('—'), '5.00'],
    ],
    [2],
  ],
  [
    'wide and accented',
    [
      ['payee', 'amount'],
      ['Café Nero ☕', '3.20'],
      ['寿司 Sushi 🍣', '12.00'],
      ['', '0.00'],
    ],
    [1],
  ],
];

for (const [name, data, right] of samples) {
  t.equal(
    plainTable(data, Object.fromEntries(right.map((i) => [i, { alignment: 'right' as const }]))),
    byTable(data, right),
    `${name}: the same layout as the table package`,
  );
}

t.test('a large table is laid out in one pass', async (t) => {
  const rows = Array.from({ length: 50_000 }, (_, i) => [`2024-01-${String((i % 28) + 1).padStart(2, '0')}`, `Line ${i}`, `${i}.00`]);
  const text = plainTable([['date', 'description', 'amount'], ...rows], { 2: { alignment: 'right' } });
  t.equal(text.split('\n').length, rows.length + 2, 'a line a row, the header and the final newline');
  t.match(text.split('\n')[1], /^2024-01-01  Line 0\s+0\.00$/);
});

t.test('a line break inside a cell is a space: a row stays one line', async (t) => {
  t.equal(
    plainTable([
      ['notes', 'amount'],
      ['Deliver to\nthe side door', '5.00'],
    ]),
    'notes                     amount\nDeliver to the side door  5.00\n',
  );
});
