/**
 * POST /bank-imports/{id}/confirm over HTTP: rowAccountMap may name only
 * rows the confirm creates, as matches may. A duplicate being skipped, a
 * rejected row or a row left out of rows was answered 200 with the mapping
 * dropped (categorised 0); now 400 validation_error on rowAccountMap,
 * dryRun too, and nothing written.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';

t.test('rowAccountMap naming a row the confirm will not create is refused, as matches is', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;

  const first = await api.request('POST', '/v1/bank-imports/upload', { body: { file: 'Date,Description,Amount\n02/11/2026,TESCO,-12.50\n' } });
  t.equal(first.status, 201, JSON.stringify(first.body.error ?? ''));
  t.equal((await api.request('POST', `/v1/bank-imports/${first.body.data.importId}/confirm`, { body: {} })).status, 200);

  // Row 1 duplicates the first import's TESCO −£12.50; row 2 is £0.00, rejected; rows 3 and 4 are new.
  const file =
    'Date,Description,Amount\n02/11/2026,TESCO,-12.50\n03/11/2026,Opening Balance,0.00\n04/11/2026,OFFICE SUPPLIES,-30.00\n05/11/2026,STAMPS,-2.00\n';
  const up = await api.request('POST', '/v1/bank-imports/upload', { body: { file } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.match(up.body.data, { totalRows: 4, validRows: 2, duplicates: 1, errorRows: 1 });
  const importId = up.body.data.importId as string;
  const rows = (await api.request('GET', `/v1/bank-imports/${importId}`)).body.data.rows as { id: number; status: string }[];
  const [duplicate, rejected, office, stamps] = rows;
  t.same(
    rows.map((r) => r.status),
    ['duplicate', 'error', 'valid', 'valid'],
  );
  const before = (await api.request('GET', '/v1/transactions')).body.data.length;
  t.equal(before, 1, 'the first import’s one line');

  const refusals = [
    [
      { duplicates: 'skip', rowAccountMap: { [duplicate!.id]: id('5100') } },
      /rowAccountMap: row 1 is not created by this confirm: it duplicates an earlier import’s row and is skipped/,
    ],
    [
      { duplicates: 'skip', rowAccountMap: { [rejected!.id]: id('5100') } },
      /rowAccountMap: row 2 is not created by this confirm: it is rejected \(line 3: a zero amount posts nothing\)/,
    ],
    [{ rows: [office!.id], rowAccountMap: { [stamps!.id]: id('5100') } }, /rowAccountMap: row 4 is not created by this confirm: it is not among rows/],
  ] as const;
  for (const [body, message] of refusals) {
    for (const dryRun of [false, true]) {
      const r = await api.request('POST', `/v1/bank-imports/${importId}/confirm`, { body: { ...body, dryRun } });
      t.equal(r.status, 400, `${JSON.stringify(body)} dryRun ${dryRun}: ${JSON.stringify(r.body.error ?? r.body.data)}`);
      t.match(r.body.error, { code: 'validation_error', field: 'rowAccountMap', message });
    }
  }
  // matches names a rejected row in the same words.
  const matched = await api.request('POST', `/v1/bank-imports/${importId}/confirm`, {
    body: { duplicates: 'skip', matches: { [rejected!.id]: 'inv_00000000000000000000000000' } },
  });
  t.equal(matched.status, 400, JSON.stringify(matched.body));
  t.match(matched.body.error, { field: 'matches', message: /matches: row 2 is not created by this confirm: it is rejected/ });

  t.equal((await api.request('GET', '/v1/transactions')).body.data.length, before, 'the refusals posted nothing');
  t.equal((await api.request('GET', `/v1/bank-imports/${importId}`)).body.data.status, 'pending');

  // A row the confirm creates takes its account: OFFICE SUPPLIES to 5100, STAMPS on suspense; 2 created, 1 skipped, 1 rejected = 4.
  const done = await api.request('POST', `/v1/bank-imports/${importId}/confirm`, { body: { duplicates: 'skip', rowAccountMap: { [office!.id]: id('5100') } } });
  t.equal(done.status, 200, JSON.stringify(done.body.error ?? ''));
  t.match(done.body.data, { created: 2, categorised: 1, skipped: 1, rejected: 1, total: 4 });
});
