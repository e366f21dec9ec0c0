/**
 * The VAT return for a period, by the organisation's scheme, from posted
 * lines. How each box is derived:
 * - standard: box 1 = credit − debit on VAT Output (2200); box 4 = debit −
 *   credit on VAT Input (2201); box 3 = 1 + 2; box 5 = 3 − 4 (negative when
 *   VAT is reclaimable); box 6 = every revenue account's credit − debit
 *   (all sales, net of VAT, which sits on 2200); box 7 = debit − credit of
 *   expense and asset lines carrying VAT metadata (a vatRate, 0 included),
 *   so wages, depreciation and other lines outside the scope of VAT stay
 *   out; boxes 2, 8 and 9 = 0 (acct records no EU trade).
 * - flat_rate: box 6 = VAT-inclusive turnover (box 6 of standard plus the
 *   VAT charged on 2200); box 1 = flat rate × box 6, rounded to the nearest
 *   penny, halves up; box 4 = 0 (the capital-purchase exception is not
 *   modelled); box 7 as standard.
 * A period with posted lines still on the suspense account (9999) is
 * incomplete (422 incomplete_ledger); a business not registered for VAT has
 * no return (422).
 */
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { loadOrganisation, vatSchemes } from '../organisation/organisation.js';
import { pence } from '../schema.js';
import { periodSchema } from './balances.js';
import type { OrgDb } from '../../store/tables.js';

export const boxDescriptions = {
  box1: 'VAT due on sales and other outputs',
  box2: 'VAT due on acquisitions of goods from EU member states',
  box3: 'Total VAT due (box 1 + box 2)',
  box4: 'VAT reclaimed on purchases and other inputs',
  box5: 'Net VAT to pay to HMRC or reclaim (box 3 − box 4)',
  box6: 'Total value of sales and all other outputs, excluding VAT',
  box7: 'Total value of purchases and all other inputs, excluding VAT',
  box8: 'Total value of supplies of goods to EU member states, excluding VAT',
  box9: 'Total value of acquisitions of goods from EU member states, excluding VAT',
} as const;

const flatRateDescriptions = {
  ...boxDescriptions,
  box1: 'VAT due: the flat rate percentage × VAT-inclusive turnover (box 6)',
  box6: 'Total value of sales and all other outputs, including VAT (flat rate scheme)',
} as const;

/** a × bp / 10000 to the nearest integer, halves away from zero. */
const percentOf = (amount: number, basisPoints: number): number => Math.sign(amount) * Math.floor((2 * Math.abs(amount) * basisPoints + 10_000) / 20_000);

const boxNames = ['box1', 'box2', 'box3', 'box4', 'box5', 'box6', 'box7', 'box8', 'box9'] as const;
const perBox = <T extends z.ZodType>(value: () => T) =>
  z.strictObject(Object.fromEntries(boxNames.map((b) => [b, value()])) as Record<(typeof boxNames)[number], T>);

export const vatReturnSchema = z.strictObject({
  period: periodSchema,
  scheme: z.enum(vatSchemes).exclude(['not_registered']),
  flatRatePercent: z.number().nullable().describe('the flat rate percentage (16.5 for 16.5%); null under the standard scheme'),
  boxes: perBox(() => pence()),
  description: perBox(() => z.string()).describe("what each box holds, in the scheme's words"),
});
export type VatReturn = z.output<typeof vatReturnSchema>;

export async function vatReturn(db: Kysely<OrgDb>, from: string, to: string): Promise<VatReturn> {
  const org = await loadOrganisation(db);
  if (org.vat_scheme === 'not_registered') {
    throw new AppError('unprocessable_entity', 'the organisation is not registered for VAT (vatScheme not_registered), so it has no VAT return');
  }
  const posted = db
    .selectFrom('lines')
    .innerJoin('accounts', 'accounts.id', 'lines.account_id')
    .where('lines.posted', '=', 1)
    .where('lines.date', '>=', from)
    .where('lines.date', '<=', to);
  const suspense = await posted
    .where('accounts.code', '=', '9999')
    .select((eb) => eb.fn.count<number>('lines.transaction_id').distinct().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(suspense.n) > 0) {
    throw new AppError(
      'incomplete_ledger',
      `${suspense.n} transaction(s) in ${from} to ${to} are still on the suspense account 9999: categorise them before the VAT return`,
    );
  }
  const sums = await posted
    .select((eb) => [
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('accounts.code', '=', '2200')
            .then(eb.neg(eb.ref('lines.amount')))
            .else(0)
            .end(),
        )
        .as('output'),
      eb.fn.sum<number>(eb.case().when('accounts.code', '=', '2201').then(eb.ref('lines.amount')).else(0).end()).as('input'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('accounts.account_type', '=', 'revenue')
            .then(eb.neg(eb.ref('lines.amount')))
            .else(0)
            .end(),
        )
        .as('sales'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(sql<boolean>`${sql.ref('accounts.account_type')} in ('expense', 'asset') and ${sql.ref('lines.vat_rate')} is not null`)
            .then(eb.ref('lines.amount'))
            .else(0)
            .end(),
        )
        .as('purchases'),
    ])
    .executeTakeFirstOrThrow();
  const output = Number(sums.output ?? 0);
  const input = Number(sums.input ?? 0);
  const sales = Number(sums.sales ?? 0);
  const purchases = Number(sums.purchases ?? 0);
  const flat = org.vat_scheme === 'flat_rate';
  const box6 = flat ? sales + output : sales;
  const box1 = flat ? percentOf(box6, org.vat_flat_rate_bp ?? 0) : output;
  const box4 = flat ? 0 : input;
  const boxes = { box1, box2: 0, box3: box1, box4, box5: box1 - box4, box6, box7: purchases, box8: 0, box9: 0 };
  return {
    period: { from, to },
    scheme: org.vat_scheme,
    flatRatePercent: flat ? (org.vat_flat_rate_bp ?? 0) / 100 : null,
    boxes,
    description: flat ? flatRateDescriptions : boxDescriptions,
  };
}
