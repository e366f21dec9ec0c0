/**
 * A QIF file (Quicken's "!Type:Bank" export) is not read as a CSV: it was
 * refused "columnMapping needs a date column: acct could not tell from the
 * file", which sent the user to remap columns the file does not have. It is
 * now 400 validation_error on file, saying QIF is not supported and that
 * CSV, OFX and QFX are, through `acct bank import`, the generated
 * `acct bank-imports upload` and HTTP (JSON, raw body, multipart); nothing
 * is kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { books, cliOn } from '../cli/support.js';

const qif = ['!Type:Bank', 'D05/11/2026', 'T-12.50', 'PTESCO', '^', 'D06/11/2026', 'T100.00', 'PCLIENT', '^', ''].join('\n');
// Quicken's account list header comes first in a file of several accounts; a byte-order mark and a blank line before it change nothing.
const qifWithAccount = ['\uFEFF', '!Account', 'NCurrent', 'TBank', '^', '!Type:Bank', 'D05/11/2026', 'T-12.50', 'PTESCO', '^', ''].join('\n');
const message = /QIF.*not supported.*CSV, OFX (or|and) QFX/;

t.test('acct bank import and bank-imports upload refuse a QIF file on file, naming the formats read', async (t) => {
  const { dir } = await books(t);
  const { acct, json } = cliOn(t, dir);
  for (const [name, text] of [
    ['s.qif', qif],
    ['accounts.txt', qifWithAccount],
  ] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    for (const args of [
      ['bank', 'import', file],
      ['bank-imports', 'upload', '--file', file],
    ]) {
      const r = await acct(...args);
      t.equal(r.status, 2, `${args.join(' ')}: a 400 is exit 2`);
      t.match(r.stderr, message, r.stderr);
      t.match(r.stderr, /\(field (file|--file)\)/, 'the generated command names its flag');
      t.notMatch(r.stderr, /columnMapping/);
    }
  }
  t.same(await json('bank-imports', 'list'), [], 'no import kept');
});

t.test('POST /bank-imports/upload refuses QIF as JSON, raw body and multipart: 400 on file', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const boundary = 'acct-qif';
  const replies = [
    await api.request('POST', '/v1/bank-imports/upload', { body: { file: qif, filename: 's.qif' } }),
    await api.request('POST', '/v1/bank-imports/upload', { body: { file: qifWithAccount } }),
    await api.request('POST', '/v1/bank-imports/upload?filename=s.qif', { raw: new Uint8Array(Buffer.from(qif)), headers: { 'content-type': 'text/plain' } }),
    await api.request('POST', '/v1/bank-imports/upload', {
      raw: new Uint8Array(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.qif"\r\nContent-Type: application/qif\r\n\r\n${qif}\r\n--${boundary}--\r\n`,
        ),
      ),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    }),
  ];
  for (const r of replies) {
    t.equal(r.status, 400, JSON.stringify(r.body));
    t.match(r.body.error, { code: 'validation_error', field: 'file', message });
  }
  t.equal((await api.request('GET', '/v1/bank-imports')).body.data.length, 0, 'no import');
});
