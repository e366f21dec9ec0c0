/**
 * A director with connected persons of his own cannot be made a connected
 * person himself: his and their loans would leave S455. Figures worked by
 * hand.
 */
import t from 'tap';
import { company } from './http-support.js';

t.test('a director with connected persons of his own cannot be made a connected person', async (t) => {
  const { api, director, movement } = await company(t);
  const alice = await director({ fullName: 'Alice Able', sharesHeld: 50 });
  const bob = await director({ fullName: 'Bob Baker', sharesHeld: 50 });
  const carol = await director({ fullName: 'Carol Able', connectedToDirectorId: alice, relationship: 'spouse' });
  await movement(alice, '2025-06-01', 2_000_000);
  await movement(carol, '2025-06-01', 300_000);
  const s455 = async () => (await api.request('GET', '/v1/director-loans/s455-exposure?asOf=2026-03-31')).body.data;
  const was = await s455();
  // Alice £20,000.00 + Carol £3,000.00 = £23,000.00 overdrawn; × 33.75% = £7,762.50.
  t.match(was, { totalOverdrawnPence: 2_300_000, totalExposurePence: 776_250 });

  // Carol → Alice → Bob would put Alice's loans under Bob and drop Carol's from S455 altogether.
  const r = await api.request('PATCH', `/v1/directors/${alice}`, { body: { connectedToDirectorId: bob, relationship: 'associate' } });
  t.equal(r.status, 400, JSON.stringify(r.body));
  t.equal(r.body.error.code, 'validation_error');
  t.equal(r.body.error.field, 'connectedToDirectorId');
  t.match(r.body.error.message, /Carol Able/);
  t.match((await api.request('GET', `/v1/directors/${alice}`)).body.data, { connectedToDirectorId: null, relationship: null }, 'nothing written');
  t.same(await s455(), was, 'S455 as it was');

  // Once Carol is no longer connected to her, Alice may be connected to Bob.
  const freed = await api.request('PATCH', `/v1/directors/${carol}`, { body: { connectedToDirectorId: null, relationship: null } });
  t.equal(freed.status, 200, JSON.stringify(freed.body.error ?? ''));
  const ok = await api.request('PATCH', `/v1/directors/${alice}`, { body: { connectedToDirectorId: bob, relationship: 'associate' } });
  t.equal(ok.status, 200, JSON.stringify(ok.body.error ?? ''));
});
