/**
 * The year-end pack as a PDF for the accountant: the directors' loan
 * accounts at the year end with S455 (CT600A) and the beneficial loans
 * (P11D), the dividends of the year and the profit check.
 */
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { companyHeader, documentFooter, documentStyles } from './company-parts.js';
import { formatDate, formatMoney } from './format.js';
import { renderPdf } from './render.js';
import type { PdfCompany } from './voucher-data.js';

export interface YearEndPdf {
  readonly company: PdfCompany;
  readonly financialYear: { readonly from: string; readonly to: string };
  readonly preparedOn: string;
  readonly loans: readonly {
    readonly fullName: string;
    readonly balancePence: number;
    readonly aggregatedBalancePence: number;
    readonly s455ExposurePence: number;
    readonly s455Rate: number;
    readonly s455Status: string;
    readonly deadline: string;
    readonly bikApplicable: boolean;
    readonly bikTaxYear: string;
    readonly bikBenefitPence: number;
  }[];
  readonly totalS455ExposurePence: number;
  readonly dividends: readonly { readonly fullName: string; readonly declaredPence: number; readonly paidPence: number }[];
  /** Declared after the year end up to preparedOn, not voided by then: events after the balance sheet date, not in the year's figures. */
  readonly dividendsAfterYearEnd: readonly {
    readonly voucherNumber: string;
    readonly fullName: string;
    readonly dateDeclared: string;
    readonly amountPence: number;
  }[];
  /** The balance sheet's at the year end (retainedAtYearEnd): profit to that day, with 3100, less the dividends declared by then. */
  readonly yearEnd: { readonly profitPence: number; readonly dividendsPence: number; readonly retainedEarningsPence: number };
  /** The profit check as known on preparedOn: what may be declared now, every dividend declared by then taken off. */
  readonly profit: { readonly availableProfitPence: number };
}

const head = (text: string, right = false): TableCell => ({ text, style: 'tableHeader', alignment: right ? 'right' : 'left' });
const money = (pence: number, extra: { bold?: boolean; margin?: [number, number, number, number] } = {}): TableCell => ({
  text: formatMoney(pence),
  alignment: 'right',
  ...extra,
});

export function yearEndDocument(p: YearEndPdf): TDocumentDefinitions {
  const loans: Content =
    p.loans.length === 0
      ? { text: 'No directors are recorded.' }
      : {
          layout: 'lightHorizontalLines',
          table: {
            headerRows: 1,
            widths: ['*', 60, 60, 56, 74, 66],
            body: [
              [
                head('Director'),
                head('Owed at year end', true),
                head('With connected', true),
                head('S455 tax', true),
                head('Repay by'),
                head('P11D benefit', true),
              ],
              ...p.loans.map((l): TableCell[] => [
                { text: `${l.fullName}${l.s455Status === 'clear' ? '' : ` (${l.s455Status.replace('_', ' ')}, ${l.s455Rate}%)`}` },
                money(l.balancePence),
                money(l.aggregatedBalancePence),
                money(l.s455ExposurePence),
                { text: formatDate(l.deadline) },
                { text: l.bikApplicable ? `${formatMoney(l.bikBenefitPence)} (${l.bikTaxYear})` : 'none', alignment: 'right' },
              ]),
            ],
          },
        };
  const dividends: Content =
    p.dividends.length === 0
      ? { text: 'No dividends were declared for the year.' }
      : {
          layout: 'lightHorizontalLines',
          table: {
            headerRows: 1,
            widths: ['*', 90, 90],
            body: [
              [head('Shareholder'), head('Declared', true), head('Paid', true)],
              ...p.dividends.map((d): TableCell[] => [{ text: d.fullName }, money(d.declaredPence), money(d.paidPence)]),
            ],
          },
        };
  const later: Content[] =
    p.dividendsAfterYearEnd.length === 0
      ? []
      : [
          {
            text: `Declared after the year end, to ${formatDate(p.preparedOn)} (not in the year's figures)`,
            bold: true,
            margin: [0, 8, 0, 2],
          },
          {
            layout: 'lightHorizontalLines',
            table: {
              headerRows: 1,
              widths: [60, '*', 90, 90],
              body: [
                [head('Voucher'), head('Shareholder'), head('Declared on'), head('Amount', true)],
                ...p.dividendsAfterYearEnd.map((d): TableCell[] => [
                  { text: d.voucherNumber },
                  { text: d.fullName },
                  { text: formatDate(d.dateDeclared) },
                  money(d.amountPence),
                ]),
              ],
            },
          },
        ];
  return {
    info: { title: `Year-end pack ${p.financialYear.to}`, subject: p.company.name },
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 50],
    defaultStyle: { fontSize: 9.5 },
    styles: documentStyles,
    content: [
      companyHeader(p.company, [
        { text: 'YEAR-END PACK', style: 'title', alignment: 'right' },
        { text: `${formatDate(p.financialYear.from)} to ${formatDate(p.financialYear.to)}`, alignment: 'right' },
        { text: `Prepared ${formatDate(p.preparedOn)}`, style: 'small', alignment: 'right' },
      ]),
      { text: "Directors' loan accounts at the year end (CT600A, P11D)", style: 'heading' },
      loans,
      { text: `S455 tax if not repaid by the deadline: ${formatMoney(p.totalS455ExposurePence)}`, bold: true, margin: [0, 6, 0, 0] },
      {
        text: 'Owed: positive when the director owes the company. S455 is charged on loans made in the year still owed nine months and one day after it ends, at the rate in force when each was made.',
        style: 'small',
        margin: [0, 2, 0, 0],
      },
      { text: 'Dividends for the year', style: 'heading' },
      dividends,
      ...later,
      { text: 'Profit available for distribution', style: 'heading' },
      {
        layout: 'noBorders',
        table: {
          widths: ['*', 90],
          body: [
            [{ text: "Profit to the year end, with earlier years' retained profit" }, money(p.yearEnd.profitPence)],
            [{ text: 'Dividends declared by the year end' }, money(-p.yearEnd.dividendsPence)],
            [{ text: 'Retained earnings at the year end', bold: true }, money(p.yearEnd.retainedEarningsPence, { bold: true })],
            [
              { text: `Available for dividends at ${formatDate(p.preparedOn)}, after later dividends`, bold: true, margin: [0, 6, 0, 0] },
              money(p.profit.availableProfitPence, { bold: true, margin: [0, 6, 0, 0] }),
            ],
          ],
        },
      },
      {
        text: `Retained earnings at the year end are the balance sheet's of ${formatDate(p.financialYear.to)}. Available for dividends: the profit as the books stand on ${formatDate(p.preparedOn)} (to the year end, or to that day if a later loss makes it less), less every dividend declared and not voided by then, for this year or any other, including those declared after the year end.`,
        style: 'small',
        margin: [0, 2, 0, 0],
      },
    ],
    footer: documentFooter(`${p.company.name} · Year-end pack ${p.financialYear.to}`),
  };
}

export function renderYearEnd(p: YearEndPdf): Promise<Uint8Array> {
  return renderPdf(yearEndDocument(p));
}
