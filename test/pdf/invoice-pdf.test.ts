import t from 'tap';
import type { Test } from 'tap';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ContactsTable, OrganisationTable } from '../../src/store/tables.js';
import type { InvoicePdfData, InvoicePdfLine } from '../../src/pdf/invoice-data.js';
import { invoicePdf } from '../../src/pdf/invoice.js';
import { formatDate, formatMoney } from '../../src/pdf/format.js';

const company: OrganisationTable = {
  id: 'org_1',
  name: 'Acme Widgets Ltd',
  business_type: 'limited_company',
  email: 'accounts@acme.example',
  phone: '0117 496 0000',
  website: null,
  vat_number: 'GB123456789',
  company_number: '01234567',
  address_line1: '12 High Street',
  address_line2: 'Unit 4',
  city: 'Bristol',
  region: 'Avon',
  postal_code: 'BS1 4DJ',
  country: 'GB',
  currency: 'GBP',
  vat_scheme: 'standard',
  vat_flat_rate_bp: null,
  fiscal_year_start: '04-01',
  invoice_prefix: 'INV-',
  invoice_next_number: 43,
  quote_prefix: 'QUO-',
  quote_next_number: 1,
  credit_note_prefix: 'CN-',
  credit_note_next_number: 1,
  dividend_next_number: 1,
  default_payment_terms: 30,
  quote_validity_days: 30,
  vat_registration_date: null,
  vat_stagger: 'quarterly',
  vat_period_month: 3,
  vat_accounting_basis: 'accrual',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

const soleTrader: OrganisationTable = {
  ...company,
  id: 'org_2',
  name: 'Sam Jones Design',
  business_type: 'sole_trader',
  email: 'sam@jones.example',
  phone: null,
  vat_number: null,
  company_number: null,
  address_line1: '3 Mill Lane',
  address_line2: null,
  city: 'York',
  region: null,
  postal_code: 'YO1 7HH',
  vat_scheme: 'not_registered',
};

const customer: ContactsTable = {
  id: 'con_1',
  contact_type: 'customer',
  name: 'Jane Smith',
  company: 'Smith & Co Ltd',
  email: 'jane@smith.example',
  email_key: 'jane@smith.example',
  phone: null,
  address_line1: '5 Market Place',
  address_line2: null,
  city: 'Leeds',
  region: 'West Yorkshire',
  postal_code: 'LS1 6AA',
  country: 'United Kingdom',
  vat_number: 'GB987654321',
  company_number: null,
  payment_terms: null,
  currency: 'GBP',
  bank_name: null,
  bank_sort_code: null,
  bank_account: null,
  bank_iban: null,
  is_active: 1,
  notes: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

function line(
  description: string,
  quantity: number,
  unitPrice: number,
  vatRateName: InvoicePdfLine['vatRateName'],
  vatRate: number,
  netAmount: number,
  vatAmount: number,
): InvoicePdfLine {
  return { description, quantity, unitPrice, vatRate, vatRateName, netAmount, vatAmount, lineTotal: netAmount + vatAmount };
}

/** Renders, checks the bytes are a PDF, and returns `pdftotext -layout` of it and `pdfinfo`. */
async function render(t: Test, data: InvoicePdfData): Promise<{ text: string; info: string }> {
  const pdf = await invoicePdf(data);
  t.ok(Buffer.isBuffer(pdf), 'a Buffer');
  t.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-', 'starts with %PDF');
  const dir = t.testdir();
  const file = path.join(dir, `${data.invoice.invoiceNumber}.pdf`);
  fs.writeFileSync(file, pdf);
  return {
    text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }),
    info: execFileSync('pdfinfo', [file], { encoding: 'utf8' }),
  };
}

/** Each fragment present in order on one line of the layout text, any spacing between. */
function row(...parts: string[]): RegExp {
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
}

t.test('formatting helpers', async (t) => {
  t.equal(formatMoney(123450), '£1,234.50');
  t.equal(formatMoney(-1000), '-£10.00');
  t.equal(formatMoney(5), '£0.05');
  t.equal(formatMoney(0), '£0.00');
  t.equal(formatMoney(123456789), '£1,234,567.89');
  t.equal(formatDate('2026-11-21'), '21 November 2026');
  t.equal(formatDate('2027-01-01'), '1 January 2027');
});

t.test('standard-rated limited company: every line, rate, VAT summary and total', async (t) => {
  // Hand-worked:
  //   Consultancy      1.5 × £800.00 = £1,200.00 at 20% → £240.00
  //   Domestic fuel    2   × £45.00  =    £90.00 at  5% →   £4.50
  //   Printed manuals  10  × £12.50  =   £125.00 at  0% →   £0.00
  //   Training course  1   × £300.00 =   £300.00 exempt →   £0.00
  //   Loyalty discount 1   × -£10.00 =   -£10.00 at 20% →  -£2.00
  //   Subtotal £1,705.00, VAT £242.50, Total £1,947.50
  //   VAT summary: 20% £1,190.00 / £238.00; 5% £90.00 / £4.50; 0% £125.00 / £0.00; Exempt £300.00 / £0.00
  const data: InvoicePdfData = {
    organisation: company,
    contact: customer,
    vatDocument: true,
    invoice: {
      invoiceNumber: 'INV-0042',
      status: 'sent',
      currency: 'GBP',
      issueDate: '2026-11-21',
      dueDate: '2026-12-21',
      paidDate: null,
      reference: 'PO-7781',
      notes: 'Goods remain our property until paid in full.',
      subtotal: 170500,
      vatAmount: 24250,
      total: 194750,
      amountPaid: 0,
      amountDue: 194750,
      items: [
        line('Consultancy', 1.5, 80000, 'standard', 20, 120000, 24000),
        line('Domestic fuel', 2, 4500, 'reduced', 5, 9000, 450),
        line('Printed manuals', 10, 1250, 'zero', 0, 12500, 0),
        line('Training course', 1, 30000, 'exempt', 0, 30000, 0),
        line('Loyalty discount', 1, -1000, 'standard', 20, -1000, -200),
      ],
      payments: [],
    },
  };
  const { text, info } = await render(t, data);

  t.match(info, /Title:\s+INV-0042/);
  t.match(info, /Creator:\s+acct/);
  t.match(info, /Producer:\s+acct/);
  t.match(info, /Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);

  for (const seller of [
    'INVOICE',
    'Acme Widgets Ltd',
    '12 High Street',
    'Unit 4',
    'Bristol',
    'Avon',
    'BS1 4DJ',
    'United Kingdom',
    'accounts@acme.example',
    '0117 496 0000',
    'VAT registration number: GB123456789',
    'Company number: 01234567',
  ]) {
    t.ok(text.includes(seller), `seller: ${seller}`);
  }
  t.match(text, row('Invoice number', 'INV-0042'));
  t.match(text, row('Invoice date', '21 November 2026'));
  t.match(text, row('Tax point', '21 November 2026'));
  t.match(text, row('Due date', '21 December 2026'));
  t.match(text, row('Your reference', 'PO-7781'));

  for (const buyer of [
    'Bill to',
    'Jane Smith',
    'Smith & Co Ltd',
    '5 Market Place',
    'Leeds',
    'West Yorkshire',
    'LS1 6AA',
    'VAT registration number: GB987654321',
  ]) {
    t.ok(text.includes(buyer), `customer: ${buyer}`);
  }

  t.match(text, row('Description', 'Quantity', 'Unit price', 'VAT rate', 'Net', 'VAT'));
  t.match(text, row('Consultancy', '1.5', '£800.00', '20%', '£1,200.00', '£240.00'));
  t.match(text, row('Domestic fuel', '2', '£45.00', '5%', '£90.00', '£4.50'));
  t.match(text, row('Printed manuals', '10', '£12.50', '0%', '£125.00', '£0.00'));
  t.match(text, row('Training course', '1', '£300.00', 'Exempt', '£300.00', '£0.00'));
  t.match(text, row('Loyalty discount', '1', '-£10.00', '20%', '-£10.00', '-£2.00'));

  t.match(text, row('VAT summary'));
  t.match(text, row('20%', '£1,190.00', '£238.00'));
  t.match(text, row('5%', '£90.00', '£4.50'));
  t.match(text, row('0%', '£125.00', '£0.00'));
  t.match(text, row('Exempt', '£300.00', '£0.00'));
  // highest rate first, exempt last
  t.ok(text.indexOf('£1,190.00') < text.lastIndexOf('£4.50'), '20% before 5% in the summary');

  t.match(text, row('Subtotal', '£1,705.00'));
  t.match(text, /^\s*VAT\s+£242\.50\s*$/m);
  t.match(text, row('Total', '£1,947.50'));
  t.match(text, row('Amount due', '£1,947.50'));
  t.notMatch(text, /Amount paid/, 'nothing paid: no Amount paid row');
  t.notMatch(text, /\bPAID\b/);

  t.ok(text.includes('Please pay by 21 December 2026, quoting INV-0042.'));
  t.ok(text.includes('Payment terms: 30 days from the invoice date.'));
  t.match(text, row('Notes'));
  t.ok(text.includes('Goods remain our property until paid in full.'));
});

t.test('sole trader not registered for VAT: no VAT column, number or summary', async (t) => {
  // Logo design 1 × £450.00 = £450.00; Revisions 2.5 × £40.00 = £100.00; Total £550.00
  const data: InvoicePdfData = {
    organisation: soleTrader,
    contact: { ...customer, vat_number: null, company: null },
    vatDocument: false,
    invoice: {
      invoiceNumber: 'SJ-7',
      status: 'sent',
      currency: 'GBP',
      issueDate: '2026-03-02',
      dueDate: '2026-03-16',
      paidDate: null,
      reference: null,
      notes: null,
      subtotal: 55000,
      vatAmount: 0,
      total: 55000,
      amountPaid: 0,
      amountDue: 55000,
      // Lines of a business not registered for VAT carry no rate (vatRateName null).
      items: [line('Logo design', 1, 45000, null, 0, 45000, 0), line('Revisions', 2.5, 4000, null, 0, 10000, 0)],
      payments: [],
    },
  };
  const { text } = await render(t, data);

  for (const s of ['INVOICE', 'Sam Jones Design', '3 Mill Lane', 'York', 'YO1 7HH', 'sam@jones.example', 'Jane Smith']) {
    t.ok(text.includes(s), s);
  }
  t.match(text, row('Invoice number', 'SJ-7'));
  t.match(text, row('Invoice date', '2 March 2026'));
  t.match(text, row('Due date', '16 March 2026'));
  t.match(text, row('Description', 'Quantity', 'Unit price', 'Amount'));
  t.match(text, row('Logo design', '1', '£450.00', '£450.00'));
  t.match(text, row('Revisions', '2.5', '£40.00', '£100.00'));
  t.match(text, row('Total', '£550.00'));
  t.match(text, row('Amount due', '£550.00'));
  t.notMatch(text, /VAT/, 'the word VAT appears nowhere');
  t.notMatch(text, /Tax point/);
  t.notMatch(text, /Subtotal/);
  t.notMatch(text, /Company number/);
  t.notMatch(text, /Your reference/);
  t.notMatch(text, /Notes/);
  t.ok(text.includes('Please pay by 16 March 2026, quoting SJ-7.'));
  t.ok(text.includes('Payment terms: 14 days from the invoice date.'));
});

// Website build 1 × £2,500.00 = £2,500.00 at 20% → £500.00; Total £3,000.00
const websiteInvoice: InvoicePdfData = {
  organisation: company,
  contact: customer,
  vatDocument: true,
  invoice: {
    invoiceNumber: 'INV-0050',
    status: 'sent',
    currency: 'GBP',
    issueDate: '2026-11-30',
    dueDate: '2026-12-30',
    paidDate: null,
    reference: null,
    notes: null,
    subtotal: 250000,
    vatAmount: 50000,
    total: 300000,
    amountPaid: 100000,
    amountDue: 200000,
    items: [line('Website build', 1, 250000, 'standard', 20, 250000, 50000)],
    payments: [{ date: '2026-12-01', amount: 100000, method: 'bank_transfer' }],
  },
};

t.test('part-paid invoice: Amount paid and what is still due', async (t) => {
  const { text } = await render(t, websiteInvoice);
  t.match(text, row('Website build', '1', '£2,500.00', '20%', '£2,500.00', '£500.00'));
  t.match(text, row('Subtotal', '£2,500.00'));
  t.match(text, /^\s*VAT\s+£500\.00\s*$/m);
  t.match(text, row('Total', '£3,000.00'));
  t.match(text, row('Amount paid', '£1,000.00'));
  t.match(text, row('Amount due', '£2,000.00'));
  t.match(text, row('Payments received'));
  t.match(text, row('1 December 2026', 'bank transfer', '£1,000.00'));
  t.ok(text.includes('Please pay by 30 December 2026, quoting INV-0050.'));
  t.notMatch(text, /\bPAID\b/);
  t.notMatch(text, /Your reference/);
});

t.test('a VAT invoice printed after the business left VAT is the document as issued: its VAT, number and tax point', async (t) => {
  // The seller has since deregistered (not_registered, the number kept on file); the invoice was issued at 20%:
  // Website build 1 × £2,500.00 → £500.00 VAT, £3,000.00.
  const deregistered: OrganisationTable = { ...company, vat_scheme: 'not_registered' };
  const { text } = await render(t, { ...websiteInvoice, organisation: deregistered });
  t.match(text, row('Website build', '1', '£2,500.00', '20%', '£2,500.00', '£500.00'));
  t.match(text, row('Subtotal', '£2,500.00'));
  t.match(text, /^\s*VAT\s+£500\.00\s*$/m);
  t.match(text, row('Total', '£3,000.00'));
  t.match(text, /VAT registration number: GB123456789/);
  t.match(text, row('Tax point', '30 November 2026'));
});

t.test('paid invoice shows PAID and nothing due', async (t) => {
  const data: InvoicePdfData = {
    ...websiteInvoice,
    invoice: {
      ...websiteInvoice.invoice,
      status: 'paid',
      paidDate: '2026-12-10',
      amountPaid: 300000,
      amountDue: 0,
      payments: [
        { date: '2026-12-01', amount: 100000, method: 'bank_transfer' },
        { date: '2026-12-10', amount: 200000, method: 'card' },
      ],
    },
  };
  const { text } = await render(t, data);
  t.match(text.slice(0, text.indexOf('Bill to')), /\bPAID\b/, 'PAID in the heading, beside INVOICE');
  t.match(text, row('Total', '£3,000.00'));
  t.match(text, row('Amount paid', '£3,000.00'));
  t.match(text, row('Amount due', '£0.00'));
  t.match(text, row('10 December 2026', 'card', '£2,000.00'));
  t.ok(text.includes('PAID in full on 10 December 2026. Thank you.'));
  t.notMatch(text, /Please pay by/);
});

t.test('a line with no VAT rate (sold before registering) reads No VAT, summed after the zero rate', async (t) => {
  // Survey 1 × £300.00 at 20% → £60.00; Maps 1 × £20.00 at 0%; Site visit 1 × £50.00 with no rate. Net £370.00, VAT £60.00, total £430.00.
  const data: InvoicePdfData = {
    ...websiteInvoice,
    invoice: {
      ...websiteInvoice.invoice,
      invoiceNumber: 'INV-0051',
      subtotal: 37000,
      vatAmount: 6000,
      total: 43000,
      amountPaid: 0,
      amountDue: 43000,
      items: [line('Site visit', 1, 5000, null, 0, 5000, 0), line('Survey', 1, 30000, 'standard', 20, 30000, 6000), line('Maps', 1, 2000, 'zero', 0, 2000, 0)],
      payments: [],
    },
  };
  const { text } = await render(t, data);
  t.match(text, row('Site visit', '1', '£50.00', 'No VAT', '£50.00', '£0.00'));
  t.match(text, row('Subtotal', '£370.00'));
  const summary = text.slice(text.indexOf('VAT summary'));
  t.match(summary, /20%\s+£300\.00\s+£60\.00[\s\S]*0%\s+£20\.00\s+£0\.00[\s\S]*No VAT\s+£50\.00\s+£0\.00/, 'No VAT comes last');
});

t.test('an imported invoice whose one line carries VAT at no single rate is a VAT invoice: Mixed, its VAT shown', async (t) => {
  // Imported from the old software: £1,000.00 net with £150.50 VAT (a mix of rates there), total £1,150.50.
  const data: InvoicePdfData = {
    ...websiteInvoice,
    invoice: {
      ...websiteInvoice.invoice,
      invoiceNumber: 'XR-101',
      subtotal: 100000,
      vatAmount: 15050,
      total: 115050,
      amountPaid: 0,
      amountDue: 115050,
      items: [line('Imported invoice XR-101', 1, 100000, null, 0, 100000, 15050)],
      payments: [],
    },
  };
  const { text } = await render(t, data);
  t.match(text, row('Imported invoice XR-101', '1', '£1,000.00', 'Mixed', '£1,000.00', '£150.50'), 'the VAT column, not No VAT beside £150.50');
  t.match(text, row('Subtotal', '£1,000.00'));
  t.match(text.slice(text.indexOf('VAT summary')), /Mixed\s+£1,000\.00\s+£150\.50/);
});

/** Whether a line of the layout text holds `figure` whole. */
const whole = (text: string, figure: string): boolean => text.split('\n').some((l) => l.includes(figure));

t.test('the largest amounts a document holds print whole, never broken across lines', async (t) => {
  // The tester's line: 1 × £99,999,999.99 at 20% → VAT 9,999,999,999p × 20% = 1,999,999,999.8p → £20,000,000.00;
  // £99,999,999.99 + £20,000,000.00 = £119,999,999.99.
  // Eight lines at the limit, £10bn net each: 100 × £100,000,000.00 = £10,000,000,000.00 at 20% → £2,000,000,000.00.
  // Subtotal 8 × £10bn + £99,999,999.99 = £80,099,999,999.99; VAT 8 × £2bn + £20m = £16,020,000,000.00;
  // total £96,119,999,999.99 (within £100bn); £1,000,000,000.00 paid leaves £95,119,999,999.99 due.
  const big = Array.from({ length: 8 }, (_, i) => line(`Turbine ${i + 1}`, 100, 10_000_000_000, 'standard', 20, 1_000_000_000_000, 200_000_000_000));
  const data: InvoicePdfData = {
    ...websiteInvoice,
    invoice: {
      ...websiteInvoice.invoice,
      subtotal: 8_009_999_999_999,
      vatAmount: 1_602_000_000_000,
      total: 9_611_999_999_999,
      amountPaid: 100_000_000_000,
      amountDue: 9_511_999_999_999,
      items: [line('Tester line', 1, 9_999_999_999, 'standard', 20, 9_999_999_999, 2_000_000_000), ...big],
      payments: [{ date: '2026-12-01', amount: 100_000_000_000, method: 'bank_transfer' }],
    },
  };
  const { text, info } = await render(t, data);
  t.match(text, row('Tester line', '1', '£99,999,999.99', '20%', '£99,999,999.99', '£20,000,000.00'));
  t.match(text, row('Turbine 8', '100', '£100,000,000.00', '20%', '£10,000,000,000.00', '£2,000,000,000.00'));
  // VAT summary: 20% on £80,099,999,999.99 is £16,020,000,000.00.
  t.match(text, row('20%', '£80,099,999,999.99', '£16,020,000,000.00'));
  t.match(text, row('Subtotal', '£80,099,999,999.99'));
  t.match(text, /^\s*VAT\s+£16,020,000,000\.00\s*$/m);
  t.match(text, row('Total', '£96,119,999,999.99'));
  t.match(text, row('Amount paid', '£1,000,000,000.00'));
  t.match(text, row('Amount due', '£95,119,999,999.99'));
  t.match(text, row('1 December 2026', 'bank transfer', '£1,000,000,000.00'));
  for (const figure of ['£20,000,000.00', '£2,000,000,000.00', '£96,119,999,999.99', '£95,119,999,999.99']) t.ok(whole(text, figure), `${figure} on one line`);
  t.match(info, /Pages:\s+1\n/);

  // The same figures on a credit note: £96,119,999,999.99 credit, £1,000,000,000.00 set against the invoice,
  // £96,119,999,999.99 − £1,000,000,000.00 = £95,119,999,999.99 left.
  const note = await render(t, {
    ...data,
    invoice: { ...data.invoice, invoiceNumber: 'CN-0001', amountPaid: 0, amountDue: 0, payments: [] },
    creditNote: { creditsInvoiceNumber: 'INV-0050', reason: null, allocated: 100_000_000_000, refunded: 0, remainingCredit: 9_511_999_999_999 },
  });
  t.match(note.text, row('Turbine 8', '100', '£100,000,000.00', '20%', '£10,000,000,000.00', '£2,000,000,000.00'));
  t.match(note.text, row('Total credit', '£96,119,999,999.99'));
  t.match(note.text, row('Set against invoices', '£1,000,000,000.00'));
  t.match(note.text, row('Credit remaining', '£95,119,999,999.99'));

  // Not registered for VAT: 8 × £10bn + £99,999,999.99 = £80,099,999,999.99 in the Amount column and as the total.
  const plain = await render(t, {
    ...data,
    organisation: soleTrader,
    vatDocument: false,
    invoice: {
      ...data.invoice,
      vatAmount: 0,
      total: 8_009_999_999_999,
      amountPaid: 0,
      amountDue: 8_009_999_999_999,
      payments: [],
      items: data.invoice.items.map((l) => ({ ...l, vatRate: 0, vatRateName: null, vatAmount: 0, lineTotal: l.netAmount })),
    },
  });
  t.match(plain.text, row('Turbine 8', '100', '£100,000,000.00', '£10,000,000,000.00'));
  t.match(plain.text, row('Amount due', '£80,099,999,999.99'));
});

t.test('the Notes heading stays with its text when the notes go over to the next page', async (t) => {
  // With 8 lines the payment block ends page 1 just where the heading fits and its text does not; a few either side too.
  for (let lines = 4; lines <= 12; lines++) {
    const items = Array.from({ length: lines }, (_, i) => line(`Item ${i + 1}`, 1, 1000, 'standard', 20, 1000, 200));
    const pdf = await invoicePdf({
      ...websiteInvoice,
      invoice: { ...websiteInvoice.invoice, notes: 'Goods remain our property until paid in full.', items },
    });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf, encoding: 'utf8' }))?.[1]);
    for (let page = 1; page <= pages; page++) {
      const text = execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', '-', '-'], { input: pdf, encoding: 'utf8' });
      t.equal(/^\s*Notes\s*$/m.test(text), text.includes('Goods remain our property'), `${lines} lines, page ${page}: the heading and its text together`);
    }
  }
});
