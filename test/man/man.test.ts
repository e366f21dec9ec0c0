import fs from 'node:fs';
import t from 'tap';
import { manDir, refreshAcctApi7, renderAcct1 } from '../../src/cli/man.js';
import { operations } from '../../src/engine/registry.js';

const read = (name: string) => fs.readFileSync(new URL(name, manDir), 'utf8');

t.test('man/acct.1 is the one generated from the registry (run npm run man after changing commands)', async (t) => {
  t.equal(read('acct.1'), renderAcct1());
});

t.test('man/acct-api.7 lists every endpoint (run npm run man after changing routes)', async (t) => {
  const page = read('acct-api.7');
  t.equal(page, refreshAcctApi7(page));
  for (const op of operations) t.ok(page.includes(`${op.method}\t/v1${op.path}\t`), `${op.method} ${op.path}`);
});

t.test('acct-api.7 keeps its implementation notes, one decision a line', async (t) => {
  const notes = read('acct-api.7').split('.SH IMPLEMENTATION NOTES')[1]?.split('.SH ')[0] ?? '';
  t.ok(notes.split('.IP \\(bu 2').length > 20, 'the notes are there');
});
