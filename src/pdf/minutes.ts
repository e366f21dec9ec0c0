/**
 * The minutes of the board meeting that resolves a dividend, as an A4 PDF
 * for the chair to sign and the company to keep (Companies Act 2006 s248:
 * ten years). The board declares interim dividends (Model Articles art. 30),
 * on the profits it has considered (Part 23).
 */
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { MinutesData } from './voucher-data.js';
import { formatCount, formatDate, formatMoney, formatPerShare } from './format.js';
import { renderPdf } from './render.js';
import { companyHeader, documentFooter, documentStyles, signatureBlock } from './company-parts.js';

export async function renderMinutes(data: MinutesData): Promise<Uint8Array> {
  return renderPdf(minutesDocument(data));
}

/** The pdfmake document definition, separate from rendering so its structure can be inspected. */
export function minutesDocument(data: MinutesData): TDocumentDefinitions {
  const keywords = [data.resolutionReference, data.company.companyNumber].filter((k): k is string => Boolean(k));
  const items = [chairItem(data), profitItem(data), dividendItem(data), ...(data.notes?.trim() ? [notesItem(data.notes)] : [])];
  return {
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 50],
    info: {
      title: `Board minutes ${data.resolutionReference}`,
      author: data.company.name,
      subject: `Minutes of a meeting of the board of directors held on ${formatDate(data.date)}`,
      keywords: keywords.join(', '),
      creator: 'acct',
      producer: 'acct',
    },
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.15 },
    styles: documentStyles,
    footer: documentFooter(`${data.company.name} · Board minutes ${data.resolutionReference}`),
    content: [
      companyHeader(data.company, [
        { text: 'Resolution reference', style: 'label', alignment: 'right' },
        { text: data.resolutionReference, style: 'number', alignment: 'right' },
      ]),
      { text: 'MINUTES OF A MEETING OF THE BOARD OF DIRECTORS', style: 'number', alignment: 'center', margin: [0, 14, 0, 2] },
      { text: `held on ${formatDate(data.date)}`, alignment: 'center' },
      attendance(data),
      ...items.map((item, i) => numbered(i + 1, item.title, item.body)),
      {
        // The chair signs beneath the minutes' last words, never on a page of its own.
        unbreakable: true,
        stack: [
          { text: 'There being no further business, the meeting was closed.', margin: [0, 10, 0, 0] },
          {
            columns: [
              signatureBlock(`Chair: ${data.chair}`, 'Signed by the chair as a true record of the meeting.', ['Signature', 'Date'], 14),
              { width: '*', text: '' },
            ],
            margin: [0, 12, 0, 0],
          },
        ],
      },
    ],
  };
}

function attendance(data: MinutesData): Content {
  const present = data.attendees.map((name) => (name === data.chair ? `${name} (Chair)` : name));
  return {
    margin: [0, 12, 0, 0],
    columns: [
      { width: 60, text: 'Present', bold: true },
      { width: '*', text: present.join('\n') },
    ],
  };
}

interface Item {
  readonly title: string;
  readonly body: Content[];
}

function numbered(n: number, title: string, body: Content[]): Content {
  return {
    margin: [0, 10, 0, 0],
    columns: [
      { width: 20, text: `${n}.`, bold: true },
      { width: '*', stack: [{ text: title, bold: true, margin: [0, 0, 0, 3] }, ...body] },
    ],
  };
}

function chairItem(data: MinutesData): Item {
  const others = data.attendees.length - (data.attendees.includes(data.chair) ? 1 : 0);
  const who = others === 0 ? `${data.chair}, the only director present, chaired the meeting.` : `${data.chair} chaired the meeting.`;
  return { title: 'Chair', body: [{ text: who }] };
}

function profitItem(data: MinutesData): Item {
  return {
    title: 'Profits available for distribution',
    body: [
      {
        text: [
          `The directors considered the company's accounts for the financial year ending ${formatDate(data.financialYearEnd)}, `,
          'which show retained profit available for distribution of ',
          { text: formatMoney(data.retainedProfitPence), bold: true },
          '.',
        ],
      },
    ],
  };
}

function dividendItem(data: MinutesData): Item {
  const total = data.totalDividendPence;
  const body: Content[] = [
    {
      text: [
        'IT WAS RESOLVED that an interim dividend of ',
        { text: formatMoney(total), bold: true },
        ' in total be declared, payable to the shareholders as follows:',
      ],
    },
    allocationTable(data),
    { text: 'Per-share figures are rounded down to four decimal places of a pound; the amounts are authoritative.', style: 'small', margin: [0, 4, 0, 0] },
  ];
  const left = data.retainedProfitPence - total;
  if (left >= 0) {
    body.push({
      text: `The directors are satisfied that the company has sufficient profits available for distribution to pay this dividend: ${formatMoney(left)} of retained profit remains after it.`,
      margin: [0, 8, 0, 0],
    });
  } else {
    body.push({
      text: `The dividend resolved exceeds the retained profit available for distribution by ${formatMoney(-left)}.`,
      bold: true,
      color: '#b00020',
      margin: [0, 8, 0, 0],
    });
  }
  body.push({
    text: `A dividend voucher is to be issued to each shareholder, quoting resolution reference ${data.resolutionReference}.`,
    margin: [0, 4, 0, 0],
  });
  return { title: 'Dividend', body };
}

function allocationTable(data: MinutesData): Content {
  const head = (text: string, right = true): TableCell => ({ text, style: 'tableHeader', alignment: right ? 'right' : 'left' });
  const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });
  const rows = data.allocations.map((a): TableCell[] => [
    { text: a.shareholderName },
    { text: a.shareClass },
    right(formatCount(a.sharesHeld)),
    right(formatPerShare(a.amountPence, a.sharesHeld)),
    right(formatMoney(a.amountPence)),
    { text: a.voucherNumber ?? '' },
  ]);
  const allocated = data.allocations.reduce((sum, a) => sum + a.amountPence, 0);
  const unallocated = data.totalDividendPence - allocated;
  const footer = (label: string, pence: number, bold: boolean): TableCell[] => [
    { text: label, colSpan: 4, bold },
    {},
    {},
    {},
    right(formatMoney(pence), bold),
    { text: '' },
  ];
  if (unallocated !== 0) rows.push(footer('Not yet allocated', unallocated, false));
  rows.push(footer('Total dividend resolved', data.totalDividendPence, true));
  return {
    margin: [0, 6, 0, 0],
    layout: 'lightHorizontalLines',
    table: {
      headerRows: 1,
      widths: ['*', 70, 50, 70, 70, 50],
      body: [[head('Shareholder', false), head('Share Class', false), head('Shares'), head('Per Share'), head('Amount'), head('Voucher', false)], ...rows],
    },
  };
}

function notesItem(notes: string): Item {
  return { title: 'Notes', body: [{ text: notes.trim() }] };
}
