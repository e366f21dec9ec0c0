import { Writable } from 'node:stream';
import t from 'tap';
import { progressBar } from '../../src/cli/progress.js';

/** A stream that says whether it is a terminal and keeps what is written. */
function stream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.text += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream & { text: string };
  out.text = '';
  Object.assign(out, { isTTY });
  return out;
}

t.test('on a terminal: the count of the total and the percentage; a new line at the end', async (t) => {
  const s = stream(true);
  const bar = progressBar('migrating', s)!;
  // 250 of 1,000 = 25%: 30 × 0.25 = 7.5, rounded to 8 of the 30 cells filled.
  bar.update(250, 1000);
  t.equal(s.text, `\r  migrating [${'#'.repeat(8)}${'-'.repeat(22)}] 250/1,000 25%`);
  bar.update(1000, 1000);
  t.match(s.text, /\] 1,000\/1,000 100%$/);
  bar.end();
  t.ok(s.text.endsWith('\n'));
});

t.test('piped: no bar at all', async (t) => {
  t.equal(progressBar('migrating', stream(false)), undefined);
});
