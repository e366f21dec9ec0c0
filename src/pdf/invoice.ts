/**
 * A sales invoice, or a credit note against one, as an A4 PDF laid out to
 * carry what HMRC asks of a full VAT invoice (a credit note carries the
 * same particulars and names the invoice it credits: VAT Notice 700,
 * section 18).
 */
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { InvoicePdfData, InvoicePdfLine } from './invoice-data.js';
import { addressLines as address, daysBetween, formatDate, formatMoney, formatQuantity, printedWidth } from './format.js';
import { renderPdf } from './render.js';

export async function invoicePdf(data: InvoicePdfData): Promise<Buffer> {
  return renderPdf(invoiceDocument(data));
}

/** The pdfmake document definition, separate from rendering so its structure can be inspected. */
export function invoiceDocument(data: InvoicePdfData): TDocumentDefinitions {
  const { invoice } = data;
  const registered = data.vatDocument;
  const noun = data.creditNote ? 'Credit note' : 'Invoice';
  return {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 50],
    info: {
      title: invoice.invoiceNumber,
      author: data.organisation.name,
      subject: data.testBooks ? `${testNotice(noun)}: ${noun} ${invoice.invoiceNumber}` : `${noun} ${invoice.invoiceNumber}`,
      creator: 'acct',
      producer: 'acct',
    },
    defaultStyle: { font: 'Roboto', fontSize: 9, lineHeight: 1.15 },
    styles: {
      title: { fontSize: 22, bold: true },
      seller: { fontSize: 13, bold: true },
      heading: { fontSize: 10, bold: true, margin: [0, 14, 0, 4] },
      tableHeader: { bold: true, fillColor: '#eeeeee' },
      banner: { fontSize: 18, bold: true },
    },
    footer: (page: number, pages: number): Content => ({
      text: [
        ...(data.testBooks ? [{ text: `${testNotice(noun)} · `, bold: true, color: testBanner.color }] : []),
        `${data.organisation.name} · ${noun} ${invoice.invoiceNumber} · Page ${page} of ${pages}`,
      ],
      alignment: 'center',
      fontSize: 7,
      color: '#666666',
      margin: [40, 20, 40, 0],
    }),
    content: [
      header(data, registered),
      parties(data, registered),
      linesTable(data, registered),
      totals(data, registered),
      ...(registered ? [vatSummary(data)] : []),
      ...(data.creditNote ? [credit(data)] : [...paymentsReceived(data), ...creditsApplied(data), payment(data)]),
      ...(invoice.notes
        ? [
            { text: 'Notes', style: 'heading', headlineLevel: 1 },
            { text: invoice.notes, id: notesId },
          ]
        : []),
    ],
    // The Notes heading goes over to the next page when none of its text would be on its own: never left alone at a page's foot.
    pageBreakBefore: (node, nodes) => node.headlineLevel === 1 && !nodes.getFollowingNodesOnPage().some((n) => n.id === notesId),
  };
}

const notesId = 'notes';

/** The font size money is printed in (defaultStyle), and the left and right padding of a table's cell. */
const bodySize = 9;
const cellPadding = 8;

/**
 * A money column's width: `usual`, or wider for its longest figure at `size`
 * (a line of £10bn net, a document of £100bn), so that no figure wraps.
 */
function moneyWidth(usual: number, figures: readonly string[], size = bodySize): number {
  return Math.max(usual, ...figures.map((f) => printedWidth(f, size) + cellPadding));
}

/** A money cell: right-aligned and never broken inside the figure. */
const moneyCell = (text: string, extra: { bold?: boolean; fontSize?: number } = {}): TableCell => ({ text, alignment: 'right', noWrap: true, ...extra });

const banners: Readonly<Record<string, { readonly text: string; readonly color: string }>> = {
  paid: { text: 'PAID', color: '#1b7f3b' },
  void: { text: 'VOID', color: '#b00020' },
  draft: { text: 'DRAFT', color: '#666666' },
};

/** The mark of a document made from the test books, above its status banner and in every page's footer. */
const testBanner = { text: 'TEST', color: '#d35400' } as const;
const testNotice = (noun: string): string => `Test books — not a real ${noun.toLowerCase()}`;

function header(data: InvoicePdfData, registered: boolean): Content {
  const org = data.organisation;
  const seller: Content[] = [{ text: org.name, style: 'seller' }, ...address(org).map((line) => ({ text: line }))];
  if (org.email) seller.push({ text: `Email: ${org.email}` });
  if (org.phone) seller.push({ text: `Telephone: ${org.phone}` });
  if (registered && org.vat_number) {
    seller.push({ text: `VAT registration number: ${org.vat_number}`, margin: [0, 4, 0, 0] });
  }
  if (org.business_type === 'limited_company' && org.company_number) {
    seller.push({ text: `Company number: ${org.company_number}` });
  }
  const status = banners[data.invoice.status];
  const marks = [...(data.testBooks ? [testBanner] : []), ...(status ? [status] : [])];
  return {
    columns: [
      { width: '*', stack: seller },
      {
        width: 'auto',
        stack: [
          { text: data.creditNote ? 'CREDIT NOTE' : 'INVOICE', style: 'title', alignment: 'right' },
          ...marks.map((mark) => ({ text: mark.text, color: mark.color, style: 'banner', alignment: 'right' as const })),
        ],
      },
    ],
  };
}

function parties(data: InvoicePdfData, registered: boolean): Content {
  const { contact, invoice } = data;
  const billTo: Content[] = [
    { text: data.creditNote ? 'Customer' : 'Bill to', bold: true },
    { text: contact.name, bold: true },
  ];
  if (contact.company && contact.company !== contact.name) billTo.push({ text: contact.company });
  billTo.push(...address(contact).map((line) => ({ text: line })));
  if (contact.vat_number) billTo.push({ text: `VAT registration number: ${contact.vat_number}` });

  const noun = data.creditNote ? 'Credit note' : 'Invoice';
  const details: [string, string][] = [
    [`${noun} number`, invoice.invoiceNumber],
    [`${noun} date`, formatDate(invoice.issueDate)],
  ];
  // The tax point is the document's date: invoices are issued within 14 days of supply, and no separate supply date is kept.
  if (registered) details.push(['Tax point', formatDate(invoice.issueDate)]);
  if (data.creditNote) details.push(['Credits invoice', data.creditNote.creditsInvoiceNumber]);
  else details.push(['Due date', formatDate(invoice.dueDate)]);
  if (invoice.reference) details.push(['Your reference', invoice.reference]);

  return {
    margin: [0, 20, 0, 0],
    columnGap: 12,
    columns: [
      { width: '*', stack: billTo },
      {
        width: 200,
        layout: 'noBorders',
        table: {
          widths: [80, '*'],
          body: details.map(([label, value]) => [{ text: label, bold: true, noWrap: true }, { text: value }]),
        },
      },
    ],
  };
}

function rateLabel(line: InvoicePdfLine): string {
  // An imported document's one line can carry VAT at no single rate (a mix of rates in the old system).
  if (line.vatRateName === null) return line.vatAmount === 0 ? 'No VAT' : 'Mixed';
  return line.vatRateName === 'exempt' ? 'Exempt' : `${formatQuantity(line.vatRate)}%`;
}

function linesTable(data: InvoicePdfData, registered: boolean): Content {
  const text = (pence: number): string => formatMoney(pence, data.invoice.currency);
  const money = (pence: number): TableCell => moneyCell(text(pence));
  const { items } = data.invoice;
  const unitWidth = (usual: number) =>
    moneyWidth(
      usual,
      items.map((l) => text(l.unitPrice)),
    );
  const netWidth = (usual: number) =>
    moneyWidth(
      usual,
      items.map((l) => text(l.netAmount)),
    );
  const vatWidth = moneyWidth(
    60,
    items.map((l) => text(l.vatAmount)),
  );
  const head = (text: string, right = true): TableCell => ({ text, style: 'tableHeader', alignment: right ? 'right' : 'left' });
  const header: TableCell[] = [head('Description', false), head('Quantity'), head('Unit price')];
  if (registered) header.push(head('VAT rate'), head('Net'), head('VAT'));
  else header.push(head('Amount'));

  const rows = data.invoice.items.map((line): TableCell[] => {
    const row: TableCell[] = [{ text: line.description }, { text: formatQuantity(line.quantity), alignment: 'right' }, money(line.unitPrice)];
    if (registered) row.push({ text: rateLabel(line), alignment: 'right' }, money(line.netAmount), money(line.vatAmount));
    else row.push(money(line.netAmount));
    return row;
  });

  return {
    margin: [0, 20, 0, 0],
    layout: 'lightHorizontalLines',
    table: {
      headerRows: 1,
      widths: registered ? ['*', 45, unitWidth(65), 45, netWidth(70), vatWidth] : ['*', 45, unitWidth(70), netWidth(80)],
      body: [header, ...rows],
    },
  };
}

function totals(data: InvoicePdfData, registered: boolean): Content {
  const { invoice } = data;
  const money = (pence: number): string => formatMoney(pence, invoice.currency);
  const figures: string[] = [];
  const rows: TableCell[][] = [];
  const add = (label: string, pence: number, bold = false) => {
    figures.push(money(pence));
    rows.push([{ text: label, bold }, moneyCell(money(pence), { bold })]);
  };
  if (registered) {
    add('Subtotal', invoice.subtotal);
    add('VAT', invoice.vatAmount);
  }
  const note = data.creditNote;
  add(note ? 'Total credit' : 'Total', invoice.total, true);
  if (note) {
    if (note.allocated > 0) add('Set against invoices', note.allocated);
    if (note.refunded > 0) add('Refunded', note.refunded);
  } else {
    if (invoice.amountPaid > 0) add('Amount paid', invoice.amountPaid);
    if ((invoice.amountCredited ?? 0) > 0) add('Credited', invoice.amountCredited ?? 0);
  }
  const due = money(note ? note.remainingCredit : invoice.amountDue);
  rows.push([{ text: note ? 'Credit remaining' : 'Amount due', bold: true, fontSize: 11 }, moneyCell(due, { bold: true, fontSize: 11 })]);
  const width = Math.max(moneyWidth(80, figures), moneyWidth(80, [due], 11));
  return {
    margin: [0, 10, 0, 0],
    columns: [
      { width: '*', text: '' },
      { width: 'auto', layout: 'lightHorizontalLines', table: { widths: [90, width], body: rows } },
    ],
  };
}

interface RateTotal {
  readonly label: string;
  readonly rate: number;
  readonly exempt: boolean;
  net: number;
  vat: number;
}

function vatSummary(data: InvoicePdfData): Content {
  const byLabel = new Map<string, RateTotal>();
  for (const line of data.invoice.items) {
    const label = rateLabel(line);
    const entry = byLabel.get(label) ?? {
      label,
      rate: line.vatRate,
      exempt: line.vatRateName === 'exempt' || (line.vatRateName === null && line.vatAmount === 0),
      net: 0,
      vat: 0,
    };
    entry.net += line.netAmount;
    entry.vat += line.vatAmount;
    byLabel.set(label, entry);
  }
  // Highest rate first, exempt supplies (and lines with no VAT rate) last: after zero-rated, which they are not.
  const ordered = [...byLabel.values()].sort((a, b) => Number(a.exempt) - Number(b.exempt) || b.rate - a.rate);
  const text = (pence: number): string => formatMoney(pence, data.invoice.currency);
  const money = (pence: number): TableCell => moneyCell(text(pence));
  const head = (text: string, right = true): TableCell => ({ text, style: 'tableHeader', alignment: right ? 'right' : 'left' });
  return {
    stack: [
      { text: 'VAT summary', style: 'heading' },
      {
        layout: 'lightHorizontalLines',
        table: {
          headerRows: 1,
          widths: [
            60,
            moneyWidth(
              70,
              ordered.map((r) => text(r.net)),
            ),
            moneyWidth(
              60,
              ordered.map((r) => text(r.vat)),
            ),
          ],
          body: [[head('VAT rate', false), head('Net'), head('VAT')], ...ordered.map((r): TableCell[] => [{ text: r.label }, money(r.net), money(r.vat)])],
        },
      },
    ],
  };
}

/** A headed table of dated amounts (payments received, credit notes applied): the date, what it was, the amount. */
function datedAmounts(heading: string, rows: readonly { date: string; what: string; amount: number }[], currency: string): Content[] {
  if (rows.length === 0) return [];
  const amounts = rows.map((r) => formatMoney(r.amount, currency));
  return [
    { text: heading, style: 'heading' },
    {
      layout: 'noBorders',
      table: {
        widths: [90, 90, moneyWidth(70, amounts)],
        body: rows.map((r, i): TableCell[] => [{ text: formatDate(r.date) }, { text: r.what }, moneyCell(amounts[i]!)]),
      },
    },
  ];
}

function paymentsReceived(data: InvoicePdfData): Content[] {
  const { payments, currency } = data.invoice;
  return datedAmounts(
    'Payments received',
    payments.map((p) => ({ date: p.date, what: p.method.replaceAll('_', ' '), amount: p.amount })),
    currency,
  );
}

/** The credit notes set against the invoice, listed as the payments are: the date, the credit note, the amount. */
function creditsApplied(data: InvoicePdfData): Content[] {
  const { credits = [], currency } = data.invoice;
  return datedAmounts(
    'Credit notes applied',
    credits.map((c) => ({ date: c.date, what: c.creditNoteNumber, amount: c.amount })),
    currency,
  );
}

/** What the credit note does: why, and where the credit went or is left. */
function credit(data: InvoicePdfData): Content {
  const note = data.creditNote as NonNullable<InvoicePdfData['creditNote']>;
  const money = (pence: number): string => formatMoney(pence, data.invoice.currency);
  const lines: Content[] = [{ text: 'Credit', style: 'heading' }];
  if (note.reason) lines.push({ text: `Reason: ${note.reason}` });
  lines.push({ text: `This credit note credits invoice ${note.creditsInvoiceNumber}.` });
  if (data.invoice.status === 'void') lines.push({ text: 'This credit note has been cancelled.' });
  else if (note.remainingCredit > 0) {
    lines.push({ text: `${money(note.remainingCredit)} of credit is yours: it will be set against your next invoice or refunded.`, bold: true });
  }
  lines.push(...bankTransfer(data));
  return { stack: lines, unbreakable: true };
}

function payment(data: InvoicePdfData): Content {
  const { invoice } = data;
  const lines: Content[] = [{ text: 'Payment', style: 'heading' }];
  if (invoice.status === 'paid' && (invoice.amountCredited ?? 0) > 0) {
    const on = invoice.paidDate ? ` on ${formatDate(invoice.paidDate)}` : '';
    lines.push({ text: `Settled in full${on} by payments and credit notes: nothing is due.`, bold: true });
  } else if (invoice.status === 'paid') {
    lines.push({
      text: invoice.paidDate ? `PAID in full on ${formatDate(invoice.paidDate)}. Thank you.` : 'PAID in full. Thank you.',
      bold: true,
    });
  } else if (invoice.status === 'void') {
    lines.push({ text: 'This invoice has been cancelled: nothing is due.' });
  } else if (invoice.amountDue <= 0) {
    lines.push({ text: 'Nothing is due on this invoice.' });
  } else {
    const days = daysBetween(invoice.issueDate, invoice.dueDate);
    lines.push({ text: `Please pay by ${formatDate(invoice.dueDate)}, quoting ${invoice.invoiceNumber}.`, bold: true });
    lines.push({ text: days > 0 ? `Payment terms: ${days} days from the invoice date.` : 'Payment terms: due on receipt.' });
    lines.push(...bankTransfer(data));
  }
  return { stack: lines, unbreakable: true };
}

/** The bank details to pay into (or, on a credit note, that the business banks with), one fact per row. */
function bankTransfer(data: InvoicePdfData): Content[] {
  const bank = data.bankDetails;
  if (!bank) return [];
  const rows: [string, string][] = [['Account name', bank.accountName]];
  if (bank.bankName) rows.push(['Bank', bank.bankName]);
  if (bank.sortCode && bank.accountNumber) rows.push(['Sort code', bank.sortCode], ['Account number', bank.accountNumber]);
  if (bank.iban) rows.push(['IBAN', bank.iban.replace(/(.{4})(?=.)/g, '$1 ')]);
  return [
    { text: data.creditNote ? 'Our bank details' : 'Pay by bank transfer', bold: true, margin: [0, 6, 0, 2] },
    { layout: 'noBorders', table: { widths: [90, '*'], body: rows.map(([label, value]): TableCell[] => [{ text: label }, { text: value }]) } },
  ];
}
