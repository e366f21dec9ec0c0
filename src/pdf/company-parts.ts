/** What the company's own papers (dividend vouchers, board minutes) share: the letterhead, the styles, a place to sign. */
import type { Column, Content, StyleDictionary } from 'pdfmake/interfaces.js';
import type { PdfCompany } from './voucher-data.js';

export const documentStyles: StyleDictionary = {
  title: { fontSize: 18, bold: true },
  number: { fontSize: 13, bold: true },
  company: { fontSize: 14, bold: true },
  banner: { fontSize: 18, bold: true },
  label: { bold: true, color: '#555555' },
  heading: { fontSize: 11, bold: true, margin: [0, 14, 0, 4] },
  tableHeader: { bold: true, fillColor: '#eeeeee' },
  small: { fontSize: 8, color: '#555555' },
};

/** The company's name, registered office and number on the left; the document's title (given) on the right; a rule beneath. */
export function companyHeader(company: PdfCompany, right: Content[]): Content {
  const left: Content[] = [{ text: company.name, style: 'company' }, ...company.address.map((line) => ({ text: line }))];
  if (company.companyNumber) left.push({ text: `Company number: ${company.companyNumber}`, margin: [0, 4, 0, 0] });
  return {
    stack: [
      {
        columns: [
          { width: '*', stack: left },
          { width: 'auto', stack: right },
        ],
        columnGap: 20,
      },
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 495, y2: 0, lineWidth: 1, lineColor: '#999999' }], margin: [0, 12, 0, 0] },
    ],
  };
}

/** A titled block with a ruled line to write on for each field ("Signature", "Date" …), `gap` points above each. */
export function signatureBlock(title: string, caption: string, fields: readonly string[], gap = 20): Column {
  return {
    width: '*',
    unbreakable: true,
    stack: [
      { text: title, bold: true, fontSize: 11 },
      { text: caption, style: 'small', margin: [0, 2, 0, 0] },
      ...fields.map((field): Content => ({
        margin: [0, gap, 0, 0],
        // columnGap 0: pdfmake would otherwise inherit the gap of the columns this block sits in.
        columnGap: 0,
        columns: [
          { text: field, width: 60, style: 'label' },
          { width: '*', canvas: [{ type: 'line', x1: 0, y1: 11, x2: 150, y2: 11, lineWidth: 0.5 }] },
        ],
      })),
    ],
  };
}

/** The footer of a company paper: the company, what the document is, and the page. */
export const documentFooter =
  (label: string) =>
  (page: number, pages: number): Content => ({
    text: `${label} · Page ${page} of ${pages}`,
    alignment: 'center',
    fontSize: 7,
    color: '#666666',
    margin: [50, 20, 50, 0],
  });
