/** Shared by the statement-reading tests (not a test file itself): the fixtures, and row conservation. */
import fs from 'node:fs';
import type { Test } from 'tap';
import { projectFile } from '../../src/paths.js';
import { fileText } from '../../src/engine/tabular/file-text.js';
import { readStatement, type ReadStatementOptions, type StatementReading } from '../../src/engine/banking/statements/read-statement.js';

export function fixtureText(name: string): string {
  return fileText(fs.readFileSync(projectFile(`fixtures/bank-statements/${name}`)));
}

export function readFixture(name: string, options: ReadStatementOptions = {}): StatementReading {
  return readStatement(fixtureText(name), { filename: name, ...options });
}

/** Rows in the file (counted by hand) = parsed + rejected; blank lines and lines above the header apart. */
export function assertConserved(t: Test, reading: StatementReading, counted: { rows: number; rejected: number; ignored: number }): void {
  t.equal(reading.totalRows, counted.rows + counted.rejected, 'data rows in the file');
  t.equal(reading.rows.length, counted.rows, 'parsed rows');
  t.equal(reading.rejected.length, counted.rejected, 'rejected rows');
  t.equal(reading.ignored, counted.ignored, 'ignored lines');
  t.equal(reading.totalRows, reading.rows.length + reading.rejected.length, 'conservation: rows in the file = parsed + rejected');
}

/** [rowIndex, date, amount in pence, balance in pence or null] of each parsed row, for one t.same per file. */
export const money = (reading: StatementReading): [number, string, number, number | null][] =>
  reading.rows.map((r) => [r.rowIndex, r.date, r.amount, r.balance]);
