/**
 * The dividend tax calculator against worked examples. Every figure is
 * worked by hand in the comment beside it: dividends sit on top of other
 * income; the personal allowance (tapered above £100,000 of total income)
 * goes to other income first, then to dividends; the dividend allowance
 * takes the next slice and still fills band space; each band's tax is
 * rounded down to the penny and the total is their sum.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { dividendTax, type DividendTaxInput, type DividendTaxResult } from '../../src/engine/company/dividend-tax.js';

type Band = readonly [rate: number, taxPence: number];

/** The calculation expected, band by band, then the totals. */
function expectCalculation(
  t: Test,
  got: DividendTaxResult,
  want: { basic: Band; higher: Band; additional: Band; allowance: number; taxable: number; total: number; net: number; effective: number },
): void {
  t.strictSame(got.calculation, {
    basicRate: { rate: want.basic[0], taxPence: want.basic[1] },
    higherRate: { rate: want.higher[0], taxPence: want.higher[1] },
    additionalRate: { rate: want.additional[0], taxPence: want.additional[1] },
    dividendAllowancePence: want.allowance,
    taxableAfterAllowancePence: want.taxable,
    totalTaxPence: want.total,
    netDividendPence: want.net,
    effectiveRate: want.effective,
  });
}

t.test('(1) within the allowance: salary £12,570 and a £500 dividend in 2025/26 owe nothing', async (t) => {
  // Total income £13,070, under £100,000: personal allowance £12,570, all used by the salary.
  // Dividends £500: none of the personal allowance left; the £500 dividend allowance covers all £500.
  // Taxable after allowance £0 → basic £0, higher £0, additional £0; total £0; net £500.00; effective 0.
  const got = dividendTax({ grossDividendPence: 50_000, otherIncomePence: 1_257_000, taxYear: '2025/26' });
  expectCalculation(t, got, {
    basic: [0.0875, 0],
    higher: [0.3375, 0],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 0,
    total: 0,
    net: 50_000,
    effective: 0,
  });
  t.strictSame(got.input, { grossDividendPence: 50_000, otherIncomePence: 1_257_000, personalAllowanceUsedPence: 1_257_000 }, 'defaults filled in');
  t.equal(got.taxYear, '2025/26');
});

t.test('(2) across basic and higher: salary £30,000 and dividends £40,000 in 2024/25', async (t) => {
  // Total £70,000: personal allowance £12,570, all against the salary; taxable salary £30,000 − £12,570 = £17,430
  // fills taxable income £0–£17,430.
  // Dividend allowance £500 fills £17,430–£17,930. The other £39,500 fills £17,930–£57,430.
  // Basic (to £37,700): £37,700 − £17,930 = £19,770 × 8.75% = £1,729.875 → £1,729.87 (rounded down)
  // Higher: £57,430 − £37,700 = £19,730 × 33.75% = £6,658.875 → £6,658.87 (rounded down)
  // Total £1,729.87 + £6,658.87 = £8,388.74 (1p under the unrounded £8,388.75); net £40,000 − £8,388.74 = £31,611.26
  // Effective 838,874 / 4,000,000 = 0.2097185 → 0.2097
  expectCalculation(t, dividendTax({ grossDividendPence: 4_000_000, otherIncomePence: 3_000_000, taxYear: '2024/25' }), {
    basic: [0.0875, 172_987],
    higher: [0.3375, 665_887],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 3_950_000,
    total: 838_874,
    net: 3_161_126,
    effective: 0.2097,
  });
});

t.test('(3) across higher and additional: salary £60,000 and dividends £100,000 in 2025/26', async (t) => {
  // Total £160,000, over £125,140: the personal allowance is nil. Taxable salary £60,000 fills £0–£60,000
  // (the whole basic band and £37,700–£60,000 of the higher).
  // Dividend allowance £500 fills £60,000–£60,500; the other £99,500 fills £60,500–£160,000.
  // Basic: £0
  // Higher (to £125,140): £125,140 − £60,500 = £64,640 × 33.75% = £21,816.00
  // Additional: £160,000 − £125,140 = £34,860 × 39.35% = £13,717.41
  // Total £35,533.41; net £100,000 − £35,533.41 = £64,466.59; effective 3,553,341 / 10,000,000 = 0.3553341 → 0.3553
  expectCalculation(t, dividendTax({ grossDividendPence: 10_000_000, otherIncomePence: 6_000_000, taxYear: '2025/26' }), {
    basic: [0.0875, 0],
    higher: [0.3375, 2_181_600],
    additional: [0.3935, 1_371_741],
    allowance: 50_000,
    taxable: 9_950_000,
    total: 3_553_341,
    net: 6_446_659,
    effective: 0.3553,
  });
});

t.test('(4) the personal allowance taper: salary £5,000 and dividends £110,000 in 2025/26', async (t) => {
  // Total £115,000: £15,000 over £100,000 takes £7,500 off the allowance: £12,570 − £7,500 = £5,070.
  // The salary uses £5,000 of it (taxable salary £0); the £70 left covers £70 of dividends.
  // Dividends left £110,000 − £70 = £109,930: allowance £500 fills £0–£500; the other £109,430 fills £500–£109,930.
  // Basic: £37,700 − £500 = £37,200 × 8.75% = £3,255.00
  // Higher: £109,930 − £37,700 = £72,230 × 33.75% = £24,377.625 → £24,377.62
  // Total £27,632.62; net £110,000 − £27,632.62 = £82,367.38; effective 2,763,262 / 11,000,000 = 0.25120564 → 0.2512
  expectCalculation(t, dividendTax({ grossDividendPence: 11_000_000, otherIncomePence: 500_000, taxYear: '2025/26' }), {
    basic: [0.0875, 325_500],
    higher: [0.3375, 2_437_762],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 10_943_000,
    total: 2_763_262,
    net: 8_236_738,
    effective: 0.2512,
  });
});

t.test('the taper ends at £125,140, the half-penny of an odd excess going to the taxpayer', async (t) => {
  // Dividends £125,140 alone in 2025/26: excess £25,140, half £12,570: no personal allowance.
  // Allowance £500 fills £0–£500; £124,640 fills £500–£125,140.
  // Basic: £37,200 × 8.75% = £3,255.00; higher: £125,140 − £37,700 = £87,440 × 33.75% = £29,511.00; additional £0
  // Total £32,766.00; net £125,140 − £32,766 = £92,374.00; effective 3,276,600 / 12,514,000 = 0.26183474 → 0.2618
  expectCalculation(t, dividendTax({ grossDividendPence: 12_514_000, taxYear: '2025/26' }), {
    basic: [0.0875, 325_500],
    higher: [0.3375, 2_951_100],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 12_464_000,
    total: 3_276_600,
    net: 9_237_400,
    effective: 0.2618,
  });
  // One penny less, £125,139.99: excess 2,513,999p, half 1,256,999.5p → 1,256,999p off: 1p of allowance is left,
  // covering 1p of dividends. Left 12,513,998p: allowance 50,000p fills 0–50,000; 12,463,998p fills 50,000–12,513,998.
  // Basic: 3,770,000 − 50,000 = 3,720,000p × 8.75% = 325,500p
  // Higher: 12,513,998 − 3,770,000 = 8,743,998p × 33.75% = 2,951,099.325p → 2,951,099p
  // Total 3,276,599p; net 12,513,999 − 3,276,599 = 9,237,400p; effective 3,276,599 / 12,513,999 = 0.26183476 → 0.2618
  expectCalculation(t, dividendTax({ grossDividendPence: 12_513_999, taxYear: '2025/26' }), {
    basic: [0.0875, 325_500],
    higher: [0.3375, 2_951_099],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 12_463_998,
    total: 3_276_599,
    net: 9_237_400,
    effective: 0.2618,
  });
});

t.test('(5) a year before 2022: salary £8,632 and dividends £60,000 in 2019/20 (7.5/32.5/38.1, allowance £2,000)', async (t) => {
  // 2019/20: personal allowance £12,500, basic rate band £37,500. Total £68,632, under £100,000.
  // The salary uses £8,632 of the allowance; the £3,868 left covers dividends: £60,000 − £3,868 = £56,132 left.
  // Dividend allowance £2,000 fills £0–£2,000; the other £54,132 fills £2,000–£56,132.
  // Basic: £37,500 − £2,000 = £35,500 × 7.5% = £2,662.50
  // Higher: £56,132 − £37,500 = £18,632 × 32.5% = £6,055.40
  // Total £8,717.90; net £60,000 − £8,717.90 = £51,282.10; effective 871,790 / 6,000,000 = 0.14529833 → 0.1453
  const got = dividendTax({ grossDividendPence: 6_000_000, otherIncomePence: 863_200, taxYear: '2019/20' });
  expectCalculation(t, got, {
    basic: [0.075, 266_250],
    higher: [0.325, 605_540],
    additional: [0.381, 0],
    allowance: 200_000,
    taxable: 5_413_200,
    total: 871_790,
    net: 5_128_210,
    effective: 0.1453,
  });
  t.equal(got.input.personalAllowanceUsedPence, 1_250_000, "the default allowance is the year's standard one, £12,500");
});

t.test('(5) 2016/17: dividends £200,000 alone reach the additional rate above £150,000 (allowance £5,000)', async (t) => {
  // Total £200,000: no personal allowance. Basic rate band £32,000, higher rate limit £150,000.
  // Dividend allowance £5,000 fills £0–£5,000; the other £195,000 fills £5,000–£200,000.
  // Basic: £32,000 − £5,000 = £27,000 × 7.5% = £2,025.00
  // Higher: £150,000 − £32,000 = £118,000 × 32.5% = £38,350.00
  // Additional: £200,000 − £150,000 = £50,000 × 38.1% = £19,050.00
  // Total £59,425.00; net £140,575.00; effective 5,942,500 / 20,000,000 = 0.297125 → 0.2971
  expectCalculation(t, dividendTax({ grossDividendPence: 20_000_000, taxYear: '2016/17' }), {
    basic: [0.075, 202_500],
    higher: [0.325, 3_835_000],
    additional: [0.381, 1_905_000],
    allowance: 500_000,
    taxable: 19_500_000,
    total: 5_942_500,
    net: 14_057_500,
    effective: 0.2971,
  });
});

t.test('the additional rate threshold falls from £150,000 (2022/23) to £125,140 (2023/24)', async (t) => {
  // Dividends £140,000 alone; no personal allowance in either year (over £125,140).
  // 2022/23: allowance £2,000 fills £0–£2,000; £138,000 fills £2,000–£140,000, all under £150,000.
  // Basic: £37,700 − £2,000 = £35,700 × 8.75% = £3,123.75; higher: £140,000 − £37,700 = £102,300 × 33.75% = £34,526.25
  // Total £37,650.00; net £102,350.00; effective 3,765,000 / 14,000,000 = 0.26892857 → 0.2689
  expectCalculation(t, dividendTax({ grossDividendPence: 14_000_000, taxYear: '2022/23' }), {
    basic: [0.0875, 312_375],
    higher: [0.3375, 3_452_625],
    additional: [0.3935, 0],
    allowance: 200_000,
    taxable: 13_800_000,
    total: 3_765_000,
    net: 10_235_000,
    effective: 0.2689,
  });
  // 2023/24: allowance £1,000 fills £0–£1,000; £139,000 fills £1,000–£140,000.
  // Basic: £37,700 − £1,000 = £36,700 × 8.75% = £3,211.25
  // Higher: £125,140 − £37,700 = £87,440 × 33.75% = £29,511.00
  // Additional: £140,000 − £125,140 = £14,860 × 39.35% = £5,847.41
  // Total £38,569.66; net £140,000 − £38,569.66 = £101,430.34; effective 3,856,966 / 14,000,000 = 0.27549757 → 0.2755
  expectCalculation(t, dividendTax({ grossDividendPence: 14_000_000, taxYear: '2023/24' }), {
    basic: [0.0875, 321_125],
    higher: [0.3375, 2_951_100],
    additional: [0.3935, 584_741],
    allowance: 100_000,
    taxable: 13_900_000,
    total: 3_856_966,
    net: 10_143_034,
    effective: 0.2755,
  });
});

t.test('(6) 2026/27 after the Budget of November 2025: salary £12,570 and dividends £37,700', async (t) => {
  // gap-facts' worked example. The salary uses the whole allowance; dividend allowance £500 fills £0–£500;
  // the other £37,200 fills £500–£37,700, all basic: £37,200 × 10.75% = £3,999.00.
  // Net £37,700 − £3,999 = £33,701.00; effective 399,900 / 3,770,000 = 0.10607427 → 0.1061
  expectCalculation(t, dividendTax({ grossDividendPence: 3_770_000, otherIncomePence: 1_257_000, taxYear: '2026/27' }), {
    basic: [0.1075, 399_900],
    higher: [0.3575, 0],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 3_720_000,
    total: 399_900,
    net: 3_370_100,
    effective: 0.1061,
  });
  // The same in 2025/26: £37,200 × 8.75% = £3,255.00 (the figure the source compares it with);
  // net £34,445.00; effective 325,500 / 3,770,000 = 0.08633952 → 0.0863
  expectCalculation(t, dividendTax({ grossDividendPence: 3_770_000, otherIncomePence: 1_257_000, taxYear: '2025/26' }), {
    basic: [0.0875, 325_500],
    higher: [0.3375, 0],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 3_720_000,
    total: 325_500,
    net: 3_444_500,
    effective: 0.0863,
  });
});

t.test('2026/27 higher rate: salary £50,270 and dividends £10,000', async (t) => {
  // Salary uses the allowance (£12,570) and the whole basic band (£37,700), filling £0–£37,700.
  // Dividend allowance £500 fills £37,700–£38,200; £9,500 fills £38,200–£47,700, all higher:
  // £9,500 × 35.75% = £3,396.25. Net £6,603.75; effective 339,625 / 1,000,000 = 0.339625 → 0.3396
  expectCalculation(t, dividendTax({ grossDividendPence: 1_000_000, otherIncomePence: 5_027_000, taxYear: '2026/27' }), {
    basic: [0.1075, 0],
    higher: [0.3575, 339_625],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 950_000,
    total: 339_625,
    net: 660_375,
    effective: 0.3396,
  });
});

t.test('(7) no other income: the personal allowance covers the first £12,570 of dividends (2025/26, £50,000)', async (t) => {
  // Allowance £12,570 covers £12,570 of dividends; £37,430 left. Dividend allowance £500 fills £0–£500;
  // the other £36,930 fills £500–£37,430, all basic: £36,930 × 8.75% = £3,231.375 → £3,231.37.
  // Net £50,000 − £3,231.37 = £46,768.63; effective 323,137 / 5,000,000 = 0.0646274 → 0.0646
  const got = dividendTax({ grossDividendPence: 5_000_000, taxYear: '2025/26' });
  expectCalculation(t, got, {
    basic: [0.0875, 323_137],
    higher: [0.3375, 0],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 3_693_000,
    total: 323_137,
    net: 4_676_863,
    effective: 0.0646,
  });
  t.strictSame(got.input, { grossDividendPence: 5_000_000, otherIncomePence: 0, personalAllowanceUsedPence: 1_257_000 });
});

t.test('a smaller personal allowance (Marriage Allowance given away): £11,310, dividends £20,000 alone in 2025/26', async (t) => {
  // £11,310 covers £11,310 of dividends; £8,690 left. Allowance £500; £8,190 basic × 8.75% = £716.625 → £716.62.
  // Net £20,000 − £716.62 = £19,283.38; effective 71,662 / 2,000,000 = 0.035831 → 0.0358
  expectCalculation(t, dividendTax({ grossDividendPence: 2_000_000, personalAllowanceUsedPence: 1_131_000, taxYear: '2025/26' }), {
    basic: [0.0875, 71_662],
    higher: [0.3375, 0],
    additional: [0.3935, 0],
    allowance: 50_000,
    taxable: 819_000,
    total: 71_662,
    net: 1_928_338,
    effective: 0.0358,
  });
});

t.test('a dividend smaller than the dividend allowance uses only its own size of it; none at all is no tax', async (t) => {
  // Salary £50,270 uses the allowance and the basic band; a £300 dividend is wholly under the £500 allowance.
  const small = dividendTax({ grossDividendPence: 30_000, otherIncomePence: 5_027_000, taxYear: '2025/26' });
  t.equal(small.calculation.dividendAllowancePence, 30_000, '£300 of the £500 allowance');
  t.equal(small.calculation.totalTaxPence, 0);
  t.equal(small.calculation.netDividendPence, 30_000);
  // No dividend: nothing taxed, and the effective rate is 0 rather than 0 / 0.
  const none = dividendTax({ grossDividendPence: 0, otherIncomePence: 5_027_000, taxYear: '2025/26' });
  t.strictSame(
    [none.calculation.dividendAllowancePence, none.calculation.totalTaxPence, none.calculation.netDividendPence, none.calculation.effectiveRate],
    [0, 0, 0, 0],
  );
});

t.test("each band's tax is rounded down to the penny", async (t) => {
  // Salary £50,270 fills the allowance and the basic band. Dividends £500.03: £500 allowance, then 3p at 33.75%
  // = 1.0125p → 1p. Net 50,003 − 1 = 50,002p; effective 1 / 50,003 = 0.00002 → 0.0000
  const got = dividendTax({ grossDividendPence: 50_003, otherIncomePence: 5_027_000, taxYear: '2025/26' });
  t.equal(got.calculation.higherRate.taxPence, 1);
  t.equal(got.calculation.taxableAfterAllowancePence, 3);
  t.equal(got.calculation.netDividendPence, 50_002);
  t.equal(got.calculation.effectiveRate, 0);
  // 2p at 33.75% = 0.675p → 0p: rounded down, not to the nearest penny.
  t.equal(dividendTax({ grossDividendPence: 50_002, otherIncomePence: 5_027_000, taxYear: '2025/26' }).calculation.totalTaxPence, 0);
});

t.test('the effective rate rounds half up at the fourth decimal place, exactly', async (t) => {
  // Salary £50,270 fills the allowance and the basic band of 2025/26, so dividends over the £500 allowance are higher rate.
  // £820: £320 × 33.75% = £108.00; 10,800 / 82,000 = 0.1317073… → 0.1317
  t.equal(dividendTax({ grossDividendPence: 82_000, otherIncomePence: 5_027_000, taxYear: '2025/26' }).calculation.effectiveRate, 0.1317);
  // £600: £100 × 33.75% = £33.75; 3,375 / 60,000 = 0.05625 exactly, a half → 0.0563 (half up; half even would give 0.0562)
  t.equal(dividendTax({ grossDividendPence: 60_000, otherIncomePence: 5_027_000, taxYear: '2025/26' }).calculation.effectiveRate, 0.0563);
  // £900: £400 × 33.75% = £135.00; 13,500 / 90,000 = 0.15 exactly
  t.equal(dividendTax({ grossDividendPence: 90_000, otherIncomePence: 5_027_000, taxYear: '2025/26' }).calculation.effectiveRate, 0.15);
});

t.test('refusals name the field: negative, fractional or huge amounts, an allowance above the standard one', async (t) => {
  const base = { grossDividendPence: 1_000_000, taxYear: '2025/26' };
  const refused: readonly [string, Partial<DividendTaxInput>, string][] = [
    ['a negative dividend', { grossDividendPence: -1 }, 'grossDividendPence'],
    ['a fraction of a penny', { grossDividendPence: 100.5 }, 'grossDividendPence'],
    ['more than £100bn', { grossDividendPence: 10_000_000_000_001 }, 'grossDividendPence'],
    ['negative other income', { otherIncomePence: -100 }, 'otherIncomePence'],
    ['other income not a number', { otherIncomePence: Number.NaN }, 'otherIncomePence'],
    ['a negative personal allowance', { personalAllowanceUsedPence: -1 }, 'personalAllowanceUsedPence'],
    ['£12,570.01 of personal allowance', { personalAllowanceUsedPence: 1_257_001 }, 'personalAllowanceUsedPence'],
    // 2018/19's standard allowance was £11,850: the spec's £12,570 is more than anyone had then.
    ['£12,570 of allowance in 2018/19', { personalAllowanceUsedPence: 1_257_000, taxYear: '2018/19' }, 'personalAllowanceUsedPence'],
  ];
  for (const [what, change, field] of refused) {
    t.throws(() => dividendTax({ ...base, ...change }), { code: 'validation_error', field }, what);
  }
  t.throws(() => dividendTax({ ...base, personalAllowanceUsedPence: 1_257_000, taxYear: '2018/19' }), {
    message: 'personalAllowanceUsedPence must be at most £11,850.00, the standard personal allowance of 2018/19',
  });
  t.throws(() => dividendTax({ ...base, grossDividendPence: -1 }), { message: 'grossDividendPence must be a whole number of pence, 0 or more' });
  // The bounds themselves are accepted: £100bn of dividends, no allowance at all, the full one.
  t.equal(dividendTax({ ...base, grossDividendPence: 10_000_000_000_000 }).input.grossDividendPence, 10_000_000_000_000);
  t.equal(dividendTax({ ...base, personalAllowanceUsedPence: 0 }).input.personalAllowanceUsedPence, 0);
  t.equal(dividendTax({ ...base, personalAllowanceUsedPence: 1_257_000 }).input.personalAllowanceUsedPence, 1_257_000);
});

t.test('a tax year outside 2016/17–2026/27, or written another way, is refused on taxYear', async (t) => {
  for (const taxYear of ['2015/16', '2027/28', '2025-26', '2025/27', '25/26', '2025', '', '2025/26 ']) {
    t.throws(() => dividendTax({ grossDividendPence: 100_000, taxYear }), { code: 'validation_error', field: 'taxYear' }, JSON.stringify(taxYear));
  }
  t.throws(() => dividendTax({ grossDividendPence: 100_000, taxYear: '2015/16' }), {
    message: 'taxYear must be a tax year from 2016/17 to 2026/27 written like 2025/26, not 2015/16',
  });
});

t.test('properties: the figures add up, and more income never lowers the tax by more than rounding', async () => {
  const years = ['2016/17', '2017/18', '2018/19', '2019/20', '2020/21', '2021/22', '2022/23', '2023/24', '2024/25', '2025/26', '2026/27'];
  const income = fc.integer({ min: 0, max: 30_000_000 }); // up to £300,000, past every band and the taper
  const rates: Record<string, readonly [number, number, number]> = {
    '7.5': [0.075, 0.325, 0.381],
    '8.75': [0.0875, 0.3375, 0.3935],
    '10.75': [0.1075, 0.3575, 0.3935],
  };
  fc.assert(
    fc.property(fc.constantFrom(...years), income, income, fc.integer({ min: 0, max: 1_000_000 }), (taxYear, gross, other, more) => {
      const got = dividendTax({ grossDividendPence: gross, otherIncomePence: other, taxYear });
      const c = got.calculation;
      const bands = [c.basicRate.taxPence, c.higherRate.taxPence, c.additionalRate.taxPence];
      assert.equal(c.totalTaxPence, bands[0]! + bands[1]! + bands[2]!, 'the total is the sum of the bands');
      assert.equal(c.netDividendPence, gross - c.totalTaxPence, 'net = gross − tax');
      assert.ok(c.dividendAllowancePence + c.taxableAfterAllowancePence <= gross, 'nothing taxed that was not paid');
      assert.ok(c.totalTaxPence <= c.taxableAfterAllowancePence * c.additionalRate.rate, 'no more than the top rate on what is taxed');
      const rateSet = taxYear < '2022/23' ? rates['7.5'] : taxYear < '2026/27' ? rates['8.75'] : rates['10.75'];
      assert.deepEqual([c.basicRate.rate, c.higherRate.rate, c.additionalRate.rate], rateSet, 'the rates of the year');
      assert.ok(Math.abs(c.effectiveRate - (gross === 0 ? 0 : c.totalTaxPence / gross)) <= 0.00005 + 1e-12, 'effective rate within half a ten-thousandth');
      // Dividends are the top slice: more other income pushes them up the bands and takes allowance from them.
      const moreOther = dividendTax({ grossDividendPence: gross, otherIncomePence: other + more, taxYear }).calculation;
      assert.ok(moreOther.totalTaxPence >= c.totalTaxPence - 2, `more other income (+${more}p) does not lower the dividend tax`);
      // A bigger dividend costs more tax but leaves more in hand (the marginal rate, taper included, stays under 100%).
      const moreDividend = dividendTax({ grossDividendPence: gross + more, otherIncomePence: other, taxYear }).calculation;
      assert.ok(moreDividend.totalTaxPence >= c.totalTaxPence - 2, `a bigger dividend (+${more}p) does not lower the tax`);
      assert.ok(moreDividend.netDividendPence >= c.netDividendPence - 2, `a bigger dividend (+${more}p) does not lower the net`);
    }),
    { numRuns: 300 },
  );
});
