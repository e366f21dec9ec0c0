/**
 * Helpers of the MTD tests (not a test file itself): books with a VAT
 * number and a filed return, the stand-in's settings, operations run
 * in-process, and the books connected to the stand-in through the real
 * OAuth code flow.
 */
import type { Test } from 'tap';
import { newBooks, movingClock, type Api, type Books, type MovingClock } from '../helpers/index.js';
import { parseOperationInput } from '../../src/engine/input.js';
import type { Ctx, Operation } from '../../src/engine/operation.js';
import type { VatReturnsTable } from '../../src/store/tables.js';
import type { HmrcSettings } from '../../src/engine/hmrc.js';
import { updateOrganisation } from '../../src/engine/organisation/organisation-ops.js';
import { authorisationUrlOp, authorise } from '../../src/engine/vat/mtd/connection-ops.js';
import { startHmrcStandIn, type Obligation, type StandIn, type StandInOptions } from './hmrc-stand-in.js';

/** HMRC's quarters of 2026 for the stand-in's user, all open. */
export const quarters2026 = (): Obligation[] => [
  { periodKey: '26A1', start: '2026-01-01', end: '2026-03-31', due: '2026-05-07', status: 'O' },
  { periodKey: '26A2', start: '2026-04-01', end: '2026-06-30', due: '2026-08-07', status: 'O' },
  { periodKey: '26A3', start: '2026-07-01', end: '2026-09-30', due: '2026-11-07', status: 'O' },
];

export const settingsOf = (standIn: StandIn): HmrcSettings => ({ baseUrl: standIn.url, clientId: standIn.clientId, clientSecret: standIn.clientSecret });

export interface Run {
  (op: Operation, raw?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }): Promise<Record<string, unknown>>;
}

/** Run operations in-process as the adapters do (external step, then the books), with `ctx`. */
export const runner =
  (ctx: () => Ctx): Run =>
  async (op, raw = {}) =>
    (await op.run(ctx(), parseOperationInput(op, { params: raw.params ?? {}, query: raw.query ?? {}, body: raw.body }))).data as Record<string, unknown>;

export interface MtdBooks {
  readonly books: Books;
  readonly clock: MovingClock;
  readonly standIn: StandIn;
  /** The books' context with the stand-in as HMRC. */
  ctx(): Ctx;
  readonly run: Run;
}

/** Books (VAT number GB 123 4567 82, HMRC's 123456782) and a stand-in HMRC with 2026's quarters, its today 2026-07-15. */
export async function mtdBooks(t: Test, options: StandInOptions & { clock?: string } = {}): Promise<MtdBooks> {
  const clock = movingClock(options.clock ?? '2026-07-15T10:00:00Z');
  const books = await newBooks(t, { clock });
  const standIn = await startHmrcStandIn(t, { today: '2026-07-15', obligations: quarters2026(), ...options });
  const ctx = () => ({ ...books.ctx(), hmrc: settingsOf(standIn) });
  const run = runner(ctx);
  await run(updateOrganisation, { body: { vatNumber: 'GB 123 4567 82' } });
  return { books, clock, standIn, ctx, run };
}

/**
 * Connect the books as a user would: the authorisation URL, the stand-in's
 * /oauth/authorize followed to its redirect, the code sent back.
 */
export async function connect(m: MtdBooks, redirectUri = 'http://127.0.0.1:9/callback'): Promise<void> {
  const { url, state } = (await m.run(authorisationUrlOp, { query: { redirectUri } })) as { url: string; state: string };
  const res = await fetch(url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  if (back.searchParams.get('state') !== state) throw new Error(`the stand-in sent back state ${back.searchParams.get('state')}`);
  await m.run(authorise, { body: { code: back.searchParams.get('code'), redirectUri } });
}

/** Connect over HTTP, as an API client would: the authorisation URL, the stand-in's redirect followed, the code POSTed. */
export async function connectOverHttp(t: Test, api: Api): Promise<void> {
  const redirectUri = 'https://books.example/hmrc/callback';
  const asked = await api.request('GET', `/v1/vat/connection/authorisation-url?redirectUri=${encodeURIComponent(redirectUri)}`);
  t.equal(asked.status, 200);
  const hmrc = await fetch(asked.body.data.url as string, { redirect: 'manual' });
  const back = new URL(hmrc.headers.get('location') ?? '');
  t.equal(back.origin + back.pathname, redirectUri, 'HMRC sends the browser to the redirect URI');
  t.equal(back.searchParams.get('state'), asked.body.data.state, 'with the state');
  const done = await api.request('POST', '/v1/vat/connection', { body: { code: back.searchParams.get('code'), redirectUri } });
  t.equal(done.status, 200, JSON.stringify(done.body));
  t.match(done.body.data, { connected: true, scope: 'read:vat write:vat' });
}

export type Boxes = Pick<VatReturnsTable, 'box1' | 'box2' | 'box3' | 'box4' | 'box5' | 'box6' | 'box7' | 'box8' | 'box9' | 'net_vat_direction'>;

/**
 * A filed return, as filing leaves it, written straight into vat_returns:
 * the figures a test needs without the documents behind them (boxes 6 to 9
 * in whole pounds, their exact pence beside). file-and-submit.test.ts files
 * through the real operation.
 */
export async function fileReturn(
  books: Books,
  id: string,
  period: { start: string; end: string },
  boxes: Boxes,
  exact: { box6: number; box7: number; box8: number; box9: number },
): Promise<void> {
  await books.store.org(books.organisationId, 'live').write((trx) =>
    trx
      .insertInto('vat_returns')
      .values({
        id,
        period_start: period.start,
        period_end: period.end,
        due_date: '2026-05-07',
        scheme: 'standard',
        basis: 'accrual',
        flat_rate_bp: null,
        ...boxes,
        exact_box6: exact.box6,
        exact_box7: exact.box7,
        exact_box8: exact.box8,
        exact_box9: exact.box9,
        flat_rate_surplus: 0,
        flat_rates: null,
        transaction_id: null,
        filed_at: '2026-07-01T09:00:00.000Z',
        filed_by: 'test',
        submitted_at: null,
        submission: null,
      })
      .execute(),
  );
}

/**
 * Q1 2026, hand-worked: sales £12,450.60 net at 20% = £2,490.12 VAT (box 1);
 * purchases £3,077.25 net at 20% = £615.45 VAT (box 4); box 3 = £2,490.12 + £0
 * = £2,490.12; box 5 = £2,490.12 − £615.45 = £1,874.67 payable; boxes 6 and 7
 * as filing rounds them to whole pounds: £12,450.60 → £12,451, £3,077.25 → £3,077.
 */
export const q1: { boxes: Boxes; exact: { box6: number; box7: number; box8: number; box9: number } } = {
  boxes: { box1: 249012, box2: 0, box3: 249012, box4: 61545, box5: 187467, box6: 1245100, box7: 307700, box8: 0, box9: 0, net_vat_direction: 'payable' },
  exact: { box6: 1245060, box7: 307725, box8: 0, box9: 0 },
};

/** What HMRC must receive for q1 with period key 26A1, byte for byte: pounds and pence for boxes 1-5, whole pounds for 6-9. */
export const q1Json =
  '{"periodKey":"26A1","vatDueSales":2490.12,"vatDueAcquisitions":0,"totalVatDue":2490.12,"vatReclaimedCurrPeriod":615.45,' +
  '"netVatDue":1874.67,"totalValueSalesExVAT":12451,"totalValuePurchasesExVAT":3077,"totalValueGoodsSuppliedExVAT":0,' +
  '"totalAcquisitionsExVAT":0,"finalised":true}';

/** The books' live tokens row. */
export async function tokensRow(books: Books) {
  return books.store.org(books.organisationId, 'live').db.selectFrom('mtd_tokens').selectAll().executeTakeFirst();
}

export async function returnRow(books: Books, id: string) {
  return books.store.org(books.organisationId, 'live').db.selectFrom('vat_returns').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
