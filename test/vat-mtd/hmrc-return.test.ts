/**
 * A filed return's pence as HMRC's nine boxes, and HMRC's pounds back as
 * pence, worked by hand.
 */
import t from 'tap';
import { declarationOf, penceOf } from '../../src/engine/vat/mtd/hmrc-return.js';

t.test('boxes 1-5 in pounds and pence, boxes 6-9 whole pounds with pence dropped', async (t) => {
  // A quarter where credit notes exceed sales: box 1 −£12.34, box 4 £20.00; box 3 = −£12.34 + £0 = −£12.34;
  // box 5 = |−£12.34 − £20.00| = £32.34 (repayable). Box 6 −£500.50 is −£500 whole; box 7 £99.99 is £99.
  const d = declarationOf({ box1: -1234, box2: 0, box3: -1234, box4: 2000, box5: 3234, box6: -50050, box7: 9999, box8: 0, box9: 100 }, '26A4');
  t.same(d, {
    periodKey: '26A4',
    vatDueSales: -12.34,
    vatDueAcquisitions: 0,
    totalVatDue: -12.34,
    vatReclaimedCurrPeriod: 20,
    netVatDue: 32.34,
    totalValueSalesExVAT: -500,
    totalValuePurchasesExVAT: 99,
    totalValueGoodsSuppliedExVAT: 0,
    totalAcquisitionsExVAT: 1,
    finalised: true,
  });
  t.equal(
    JSON.stringify(d),
    '{"periodKey":"26A4","vatDueSales":-12.34,"vatDueAcquisitions":0,"totalVatDue":-12.34,"vatReclaimedCurrPeriod":20,"netVatDue":32.34,' +
      '"totalValueSalesExVAT":-500,"totalValuePurchasesExVAT":99,"totalValueGoodsSuppliedExVAT":0,"totalAcquisitionsExVAT":1,"finalised":true}',
    'no float noise in the JSON',
  );
});

t.test("HMRC's pounds as pence", async (t) => {
  // HMRC's own examples: 105.5 = £105.50, -100.45, 5.05, 6000.3 = £6,000.30.
  t.equal(penceOf(105.5), 10550);
  t.equal(penceOf(-100.45), -10045);
  t.equal(penceOf(5.05), 505);
  t.equal(penceOf(6000.3), 600030);
  t.equal(penceOf(0.29), 29, '0.29 × 100 is 28.999… in binary: rounded');
  t.equal(penceOf(9999999999999.99), 999999999999999);
});
