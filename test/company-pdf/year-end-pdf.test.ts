/**
 * The year-end pack's PDF (acct company year-end --pdf): its profit figures
 * are the year end's, as the balance sheet at that day holds them; a
 * dividend declared after the year end is shown apart and only in the
 * figure available now, labelled so. Figures worked by hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { company } from '../company/support.js';
import { pdfText, row } from '../sales-cli/support.js';
import { flat, pdfInfo } from './support.js';

t.test("the pack's retained earnings are the year end's; a later dividend comes off only the figure available now", async (t) => {
  const c = await company(t);
  // Profit £50,000.00 in the year to 31 March 2026.
  await c.post('2025-06-01', 'Consulting', '1200=50000', '4000=-50000');
  const jo = await c.director('Jo Bloggs', 100);
  // DIV-0001 £3,000.00 declared 20 March 2026, in the year, out of its profit.
  const bm1 = c.id(await c.minutes(jo, '2026-03-20', '2026-03-31', '3000'));
  t.equal((await c.declare(jo, bm1, '3000', '2026-03-20')).status, 0);
  // DIV-0002 £300.00 declared 1 December 2026, in the next year (to 31 March 2027): after the year end.
  const bm2 = c.id(await c.minutes(jo, '2026-12-01', '2027-03-31', '300'));
  t.equal((await c.declare(jo, bm2, '300', '2026-12-01')).status, 0);

  // Not t.testdir(): that is the books' folder, which a second call would empty.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-ye-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pdf = path.join(dir, 'ye.pdf');
  const r = await c.acct('company', 'year-end', '--year', '2026', '--prepared-on', '2026-12-03', '--pdf', pdf);
  t.equal(r.status, 0, r.stderr);
  const bytes = fs.readFileSync(pdf);
  const text = pdfText(bytes);
  const words = flat(text);
  t.match(pdfInfo(bytes), /Pages:\s+1\n/, 'one page');

  // At 31 March 2026 the balance sheet holds the profit, £50,000.00, less 3200 Dividends £3,000.00 (DIV-0001):
  // retained earnings £50,000.00 − £3,000.00 = £47,000.00. DIV-0002 (1 December 2026) is not in it.
  t.match(text, row("Profit to the year end, with earlier years' retained profit", '£50,000.00'));
  t.match(text, row('Dividends declared by the year end', '-£3,000.00'));
  t.match(text, row('Retained earnings at the year end', '£47,000.00'));
  t.notMatch(text, '£49,700.00', 'not £50,000.00 less the later £300.00 dividend');
  // DIV-0002 is shown apart, as after the year end.
  t.ok(words.includes('Declared after the year end, to 3 December 2026 (not in the year'), words);
  t.match(text, row('DIV-0002', 'Jo Bloggs', '1 December 2026', '£300.00'));
  // Available on 3 December 2026: £50,000.00 less every dividend declared by then, £3,000.00 + £300.00 = £3,300.00: £46,700.00.
  t.match(text, row('Available for dividends at 3 December 2026, after later dividends', '£46,700.00'));
});
