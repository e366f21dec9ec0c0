/**
 * A few months of realistic trading for the demo organisation (a joinery
 * workshop), posted through posting like any other transaction. The
 * sequence is fixed by a seeded generator and dated back from today, so
 * every demo looks alike and nothing is in the future.
 */
import type { Kysely } from 'kysely';
import { addDays } from '../dates.js';
import { createTransaction, loadBooks, setReconciled, type Posting } from '../ledger/posting.js';
import type { OrgDb } from '../../store/tables.js';

/** mulberry32: a small, fast, seeded generator; the demo needs repeatability, not cryptography. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Entry {
  readonly date: string;
  readonly description: string;
  readonly reference?: string;
  readonly status?: 'draft' | 'posted';
  /** [account code, pence, VAT rate on a net line] */
  readonly lines: readonly (readonly [string, number, number?])[];
}

const customers = ['Calder Valley Homes', 'Moorside Lettings', 'The Old Mill Café', 'Heptonstall Parish Council', 'J. Greenwood'];
const jobs = ['Oak staircase', 'Kitchen cabinets', 'Sash window repairs', 'Fitted wardrobes', 'Garden gates', 'Shop counter'];

/** Net amount plus 20% VAT, as a sale or a purchase would carry it. */
const withVat = (net: number) => [net, Math.round(net * 0.2), net + Math.round(net * 0.2)] as const;

export function demoEntries(today: string, months = 4): Entry[] {
  const random = seeded(20261121);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const start = addDays(today, -months * 30);
  const entries: Entry[] = [
    {
      date: start,
      description: 'Capital introduced by the directors',
      reference: 'CAP-1',
      lines: [
        ['1200', 1_500_000],
        ['3000', -1_500_000],
      ],
    },
  ];
  let invoice = 1001;
  for (let day = 1; day <= months * 30; day++) {
    const date = addDays(start, day);
    if (date > today) break;
    const dom = Number(date.slice(8, 10));
    if (dom === 1) {
      const [net, vat, gross] = withVat(125_000);
      entries.push({
        date,
        description: 'Workshop rent, Calder Works',
        reference: `RENT-${date.slice(0, 7)}`,
        lines: [
          ['5200', net, 20],
          ['2201', vat],
          ['1200', -gross],
        ],
      });
    }
    if (dom === 3)
      entries.push({
        date,
        description: 'Business current account fee',
        lines: [
          ['5800', 850],
          ['1200', -850],
        ],
      });
    if (dom === 8) {
      const [net, vat, gross] = withVat(6_499);
      entries.push({
        date,
        description: 'Mobile and broadband',
        lines: [
          ['5700', net, 20],
          ['2201', vat],
          ['1200', -gross],
        ],
      });
    }
    if (dom === 15)
      entries.push({
        date,
        description: 'Van and tools insurance',
        lines: [
          ['5920', 9_875],
          ['1200', -9_875],
        ],
      });
    if (random() < 0.16) {
      const [net, vat, gross] = withVat(Math.round((40_000 + random() * 260_000) / 100) * 100);
      entries.push({
        date,
        description: `${pick(jobs)} for ${pick(customers)}`,
        reference: `INV-${invoice++}`,
        lines: [
          ['1200', gross],
          ['4000', -net, 20],
          ['2200', -vat],
        ],
      });
    }
    if (random() < 0.09) {
      const [net, vat, gross] = withVat(Math.round((15_000 + random() * 90_000) / 100) * 100);
      entries.push({
        date,
        description: `${pick(['Oak', 'Ash', 'Pine', 'Sapele'])} boards from Pennine Timber`,
        lines: [
          ['5000', net, 20],
          ['2201', vat],
          ['1200', -gross],
        ],
      });
    }
  }
  entries.push({
    date: today,
    description: 'Card payment to be categorised',
    status: 'draft',
    lines: [
      ['5990', 2_340],
      ['1200', -2_340],
    ],
  });
  return entries;
}

export async function seedDemoActivity(trx: Kysely<OrgDb>, posting: Posting, today: string): Promise<number> {
  const books = await loadBooks(trx);
  const byCode = new Map([...books.accounts.values()].map((a) => [a.code, a.id]));
  const reconcileBefore = addDays(today, -30);
  const entries = demoEntries(today);
  for (const e of entries) {
    const view = await createTransaction(trx, posting, {
      date: e.date,
      description: e.description,
      reference: e.reference ?? null,
      status: e.status ?? 'posted',
      sourceType: 'manual',
      lines: e.lines.map(([code, amount, rate]) => ({
        accountId: byCode.get(code) as string,
        amount,
        ...(rate === undefined ? {} : { vatRate: rate, vatTreatment: 'exclusive' as const }),
      })),
    });
    // What cleared the bank over a month ago has been reconciled against the statement.
    if (view.status === 'posted' && e.date < reconcileBefore) await setReconciled(trx, posting, view.id, true);
  }
  return entries.length;
}
