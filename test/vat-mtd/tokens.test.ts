/**
 * The books' HMRC tokens: kept per organisation when connecting, refreshed
 * when the access token has expired by the books' clock or when HMRC
 * answers 401 INVALID_CREDENTIALS (once, then the call is made again), and
 * the refreshed tokens stored; a refused refresh token means connecting
 * again.
 */
import t from 'tap';
import { AppError } from '../../src/engine/errors.js';
import { getConnection } from '../../src/engine/vat/mtd/connection-ops.js';
import { obligationsOp } from '../../src/engine/vat/mtd/mtd-ops.js';
import { connect, mtdBooks, settingsOf, tokensRow } from './support.js';

const hours4 = 4 * 60 * 60 * 1000;

t.test('connecting keeps the tokens of the grant, with their expiry 4 hours on', async (t) => {
  const m = await mtdBooks(t);
  t.match(await m.run(getConnection), { connected: false, hmrcBaseUrl: m.standIn.url, scope: null, connectedAt: null });
  await connect(m);
  const row = await tokensRow(m.books);
  t.match(row, {
    base_url: m.standIn.url,
    access_token: m.standIn.accessTokens[0],
    refresh_token: /^refresh-/,
    scope: 'read:vat write:vat',
    connected_at: '2026-07-15T10:00:00.000Z',
    // 10:00 + 14400 s = 14:00.
    expires_at: '2026-07-15T14:00:00.000Z',
    refreshed_at: null,
  });
  t.same(
    m.standIn.tokenRequests.map((f) => f['grant_type']),
    ['authorization_code'],
  );
  t.match(m.standIn.tokenRequests[0], { client_id: m.standIn.clientId, client_secret: m.standIn.clientSecret, redirect_uri: 'http://127.0.0.1:9/callback' });
  t.match(await m.run(getConnection), {
    connected: true,
    scope: 'read:vat write:vat',
    connectedAt: '2026-07-15T10:00:00.000Z',
    accessExpiresAt: '2026-07-15T14:00:00.000Z',
  });

  // The test books and another HMRC environment are not connected by it.
  t.match(await getConnection.run({ ...m.books.ctx({ mode: 'test' }), hmrc: settingsOf(m.standIn) }, {}), { data: { connected: false } });
  t.match(await getConnection.run({ ...m.ctx(), hmrc: { ...settingsOf(m.standIn), baseUrl: 'https://api.service.hmrc.gov.uk' } }, {}), {
    data: { connected: false, hmrcBaseUrl: 'https://api.service.hmrc.gov.uk' },
  });
});

t.test('an access token expired by the clock is refreshed before the call, and the new tokens stored', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  const first = await tokensRow(m.books);
  m.clock.advance(hours4); // 14:00: the token's expiry
  m.standIn.expireAccessTokens(); // HMRC agrees
  const got = await m.run(obligationsOp, { query: { status: 'open' } });
  t.equal((got['obligations'] as unknown[]).length, 3, 'the call succeeded');
  t.same(
    m.standIn.tokenRequests.map((f) => f['grant_type']),
    ['authorization_code', 'refresh_token'],
  );
  t.equal(m.standIn.tokenRequests[1]?.['refresh_token'], first?.refresh_token, 'refreshed with the stored refresh token');
  t.equal(m.standIn.calls.length, 1, 'one API call, made with the new token');
  const row = await tokensRow(m.books);
  t.match(row, {
    access_token: m.standIn.accessTokens[1],
    connected_at: '2026-07-15T10:00:00.000Z',
    refreshed_at: '2026-07-15T14:00:00.000Z',
    // 14:00 + 4 hours.
    expires_at: '2026-07-15T18:00:00.000Z',
  });
  t.not(row?.refresh_token, first?.refresh_token, 'the new refresh token is kept (the old one is spent)');
});

t.test('HMRC answering 401 INVALID_CREDENTIALS before our expiry: refreshed once, the call made again', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  m.standIn.expireAccessTokens();
  const got = await m.run(obligationsOp, { query: { status: 'open' } });
  t.equal((got['obligations'] as unknown[]).length, 3);
  t.equal(m.standIn.calls.length, 2, 'refused, then answered');
  t.same(
    m.standIn.tokenRequests.map((f) => f['grant_type']),
    ['authorization_code', 'refresh_token'],
  );
  t.equal((await tokensRow(m.books))?.access_token, m.standIn.accessTokens[1]);

  // Refused again with the refreshed token: one refresh only, then the user must connect again.
  m.standIn.expireAccessTokens();
  m.standIn.failNext(401, { code: 'INVALID_CREDENTIALS', message: 'Invalid Authentication information provided' });
  const calls = m.standIn.calls.length;
  const e = await obligationsOp.run(m.ctx(), { status: 'open' }).then(
    () => null,
    (e: unknown) => e,
  );
  t.match(e, { code: 'hmrc_not_connected', message: /HMRC no longer accepts acct's authorisation \(INVALID_CREDENTIALS .*\): run acct vat connect again/ });
  t.equal(m.standIn.calls.length, calls + 2, 'the call and its one retry');
  t.equal(m.standIn.tokenRequests.length, 3, 'one more refresh, not two');
});

t.test('a refresh token HMRC refuses: 422 hmrc_not_connected, reconnect', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  m.standIn.expireAccessTokens();
  m.standIn.revokeRefreshTokens();
  const e = await obligationsOp.run(m.ctx(), { status: 'open' }).then(
    () => null,
    (e: unknown) => e,
  );
  t.ok(e instanceof AppError);
  t.match(e, { code: 'hmrc_not_connected', status: 422, message: /HMRC refused the refresh token .*: run acct vat connect/ });

  await connect(m);
  t.equal((await m.run(getConnection))['connected'], true, 'connecting again replaces the tokens');
  t.equal(((await m.run(obligationsOp, { query: { status: 'open' } }))['obligations'] as unknown[]).length, 3);
});

t.test('two calls needing a refresh at once refresh once (refresh tokens are single use)', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  m.clock.advance(hours4);
  m.standIn.expireAccessTokens();
  const [a, b] = await Promise.all([m.run(obligationsOp, { query: { status: 'open' } }), m.run(obligationsOp, { query: { status: 'open' } })]);
  t.equal((a['obligations'] as unknown[]).length, 3);
  t.equal((b['obligations'] as unknown[]).length, 3);
  t.same(
    m.standIn.tokenRequests.map((f) => f['grant_type']),
    ['authorization_code', 'refresh_token'],
  );
});

t.test('refreshing without client credentials is 422 hmrc_not_configured', async (t) => {
  const m = await mtdBooks(t);
  await connect(m);
  m.clock.advance(hours4);
  const e = await obligationsOp.run({ ...m.ctx(), hmrc: { baseUrl: m.standIn.url, clientId: null, clientSecret: null } }, { status: 'open' }).then(
    () => null,
    (e: unknown) => e,
  );
  t.match(e, { code: 'hmrc_not_configured', message: /ACCT_HMRC_CLIENT_ID and ACCT_HMRC_CLIENT_SECRET/ });
});
