/**
 * A dividend voucher as an A4 PDF: what the shareholder keeps as the record
 * of a dividend for their tax return, and the company files with the board
 * minutes that declared it. A voucher once paid carries a diagonal PAID
 * watermark; a voided one, VOID.
 */
import type { Content, TableCell, TDocumentDefinitions, Watermark } from 'pdfmake/interfaces.js';
import type { VoucherData } from './voucher-data.js';
import { formatCount, formatDate, formatMoney, formatPerShare, formatTaxYear, taxYearEnd } from './format.js';
import { renderPdf } from './render.js';
import { voucherDataHash } from './voucher-hash.js';
import { companyHeader, documentFooter, documentStyles, signatureBlock } from './company-parts.js';

export async function renderVoucher(data: VoucherData): Promise<Uint8Array> {
  return renderPdf(voucherDocument(data));
}

const marks: Readonly<Record<string, { readonly text: string; readonly color: string }>> = {
  paid: { text: 'PAID', color: '#1b7f3b' },
  void: { text: 'VOID', color: '#b00020' },
};

/** The pdfmake document definition, separate from rendering so its structure can be inspected. */
export function voucherDocument(data: VoucherData): TDocumentDefinitions {
  const mark = marks[data.status];
  const watermark: Watermark | undefined = mark && { text: mark.text, color: mark.color, opacity: 0.12, bold: true, fontSize: 150 };
  const keywords = [data.voucherNumber, data.company.companyNumber, data.resolution.reference].filter((k): k is string => Boolean(k));
  return {
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 50],
    info: {
      title: `Dividend voucher ${data.voucherNumber}`,
      author: data.company.name,
      subject: `Dividend voucher ${data.voucherNumber}: ${data.shareholder.name}`,
      keywords: keywords.join(', '),
      creator: 'acct',
      producer: 'acct',
    },
    ...(watermark ? { watermark } : {}),
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.2 },
    styles: documentStyles,
    footer: documentFooter(`${data.company.name} · Dividend voucher ${data.voucherNumber}`),
    content: [
      companyHeader(data.company, [
        { text: 'DIVIDEND VOUCHER', style: 'title', alignment: 'right' },
        { text: data.voucherNumber, style: 'number', alignment: 'right' },
        ...(mark ? [{ text: mark.text, color: mark.color, style: 'banner', alignment: 'right' as const }] : []),
      ]),
      parties(data),
      dividendTable(data),
      {
        text: 'The dividend per share is rounded down to four decimal places of a pound; the total is authoritative.',
        style: 'small',
        margin: [0, 4, 0, 0],
      },
      statement(data),
      {
        columns: [
          signatureBlock('Authorised Director', 'Signed on behalf of the board of directors.', ['Signature', 'Name', 'Date']),
          signatureBlock('Shareholder Acknowledgement', 'I acknowledge receipt of this dividend voucher.', ['Signature', 'Date']),
        ],
        columnGap: 30,
        margin: [0, 30, 0, 0],
      },
      verification(data),
    ],
  };
}

function parties(data: VoucherData): Content {
  const shareholder: Content[] = [
    { text: 'Shareholder', style: 'label' },
    { text: data.shareholder.name, bold: true, fontSize: 11 },
  ];
  const address = (data.shareholder.address ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  shareholder.push(...address.map((line) => ({ text: line })));

  const details: [string, string][] = [
    ['Voucher Number', data.voucherNumber],
    ['Date Declared', formatDate(data.declaredDate)],
  ];
  if (data.paidDate) details.push(['Date Paid', formatDate(data.paidDate)]);
  if (data.status === 'void' && data.voidedDate) details.push(['Date Voided', formatDate(data.voidedDate)]);
  // A dividend voided before it was paid was never income of any tax year.
  if (data.status !== 'void' || data.paidDate) details.push(['Tax Year of Payment', taxYear(data)]);

  return {
    margin: [0, 24, 0, 0],
    columnGap: 12,
    columns: [
      { width: '*', stack: shareholder },
      {
        width: 280,
        layout: 'noBorders',
        table: {
          widths: [110, '*'],
          body: details.map(([label, value]): TableCell[] => [{ text: label, bold: true }, { text: value }]),
        },
      },
    ],
  };
}

/** A dividend is income of the tax year it is paid in; until it is paid that is the declaration's year only if paid in time. */
function taxYear(data: VoucherData): string {
  if (data.paidDate) return formatTaxYear(data.paidDate);
  return `${formatTaxYear(data.declaredDate)}, if paid by ${taxYearEnd(data.declaredDate)}`;
}

function dividendTable(data: VoucherData): Content {
  const head = (text: string, right = true): TableCell => ({ text, style: 'tableHeader', alignment: right ? 'right' : 'left' });
  return {
    margin: [0, 24, 0, 0],
    layout: 'lightHorizontalLines',
    table: {
      headerRows: 1,
      widths: ['*', 80, 110, 110],
      body: [
        [head('Share Class', false), head('Shares Held'), head('Dividend per Share'), head('Total (Gross)')],
        [
          { text: data.shareClass },
          { text: formatCount(data.sharesHeld), alignment: 'right' },
          { text: formatPerShare(data.amountPence, data.sharesHeld), alignment: 'right' },
          { text: formatMoney(data.amountPence), alignment: 'right', bold: true },
        ],
      ],
    },
  };
}

const methods: Readonly<Record<string, string>> = {
  bank_transfer: 'by bank transfer',
  cheque: 'by cheque',
  dla_offset: "by credit to the director's loan account",
};

function statement(data: VoucherData): Content {
  const { resolution } = data;
  const how = methods[data.paymentMethod] ?? `by ${data.paymentMethod.replaceAll('_', ' ')}`;
  const lines: Content[] = [
    {
      text: [
        'Declared by resolution of the board of directors, reference ',
        { text: resolution.reference, bold: true },
        `, recorded in the minutes of the meeting held on ${formatDate(resolution.minutesDate)}.`,
      ],
    },
  ];
  if (data.status === 'void') {
    lines.push({ text: 'This dividend has been voided: nothing is payable under this voucher.', bold: true, color: '#b00020' });
  } else if (data.status === 'paid' && data.paidDate) {
    lines.push({ text: `Paid in full ${how} on ${formatDate(data.paidDate)}: ${formatMoney(data.amountPence)}.`, bold: true });
  } else {
    lines.push({ text: `Payable ${how}: ${formatMoney(data.amountPence)}.`, bold: true });
  }
  if (data.status !== 'void') lines.push({ text: 'No tax has been deducted from this dividend.' });
  return { stack: lines, margin: [0, 16, 0, 0] };
}

function verification(data: VoucherData): Content {
  return {
    margin: [0, 36, 0, 0],
    stack: [
      {
        text: [
          { text: 'Verification hash: ', bold: true },
          { text: voucherDataHash(data), bold: true, characterSpacing: 1 },
        ],
      },
      {
        text: 'The first 16 hexadecimal digits of the SHA-256 of the company name and number, voucher number, shareholder, share class, shares held, gross amount in pence, date declared and resolution reference.',
        style: 'small',
      },
    ],
  };
}
