/**
 * The seeded books written as an accountant would post them, from the
 * generator's own records (seeded-books.ts), never from acct: an hledger
 * journal and a beancount file that the differential test sets beside
 * acct's export. Per event, debits positive:
 * - an issued invoice: Dr 1100 total / Cr each line's account its net / Cr 2200 VAT;
 *   a bill: Dr each line's account / Dr 2201 VAT / Cr 2100 total;
 * - a payment: Dr bank / Cr 1100; of a bill: Dr 2100 / Cr bank;
 * - a credit note: the reversal of the lines it credits, VAT included;
 * - a refund of credit: Dr 1100 / Cr bank; from a supplier: Dr bank / Cr 2100;
 * - allocations move credit between documents on the same control account: no entry;
 * - drafts, voided documents and credit notes, removed payments and refunds: no entry.
 * Accounts are named by code under the root of their type, which the chart
 * gives by code range: 1xxx and 9999 assets, 2xxx liabilities, 3xxx equity,
 * 4xxx revenue, 5xxx expenses.
 */
import { control, vatAccount, type DocKind, type Line, type NoteLine, type Step } from './seeded-books.js';

export interface Entry {
  readonly date: string;
  readonly description: string;
  readonly postings: readonly (readonly [string, number])[];
}

/** +1 when the document's lines are debits (bills), −1 when they are credits (invoices). */
const lineSign = (kind: DocKind): 1 | -1 => (kind === 'sales' ? -1 : 1);

/** A document's lines posted at `sign` and its control account against them. */
function documentPostings(kind: DocKind, lines: readonly (Line | NoteLine)[], sign: 1 | -1): [string, number][] {
  const total = lines.reduce((s, l) => s + l.net + l.vat, 0);
  const vat = lines.reduce((s, l) => s + l.vat, 0);
  const accountOf = (l: Line | NoteLine) => ('source' in l ? l.source.account : l.account);
  return [[control[kind], -sign * total], ...lines.map((l): [string, number] => [accountOf(l), sign * l.net]), [vatAccount[kind], sign * vat]];
}

export function modelEntries(steps: readonly Step[]): Entry[] {
  const out: Entry[] = [];
  for (const s of steps) {
    switch (s.type) {
      case 'doc':
        if (s.doc.status === 'issued')
          out.push({ date: s.doc.date, description: `${s.doc.kind} ${s.doc.id}`, postings: documentPostings(s.doc.kind, s.doc.lines, lineSign(s.doc.kind)) });
        break;
      case 'payment':
        if (s.payment.live) {
          const money = s.doc.kind === 'sales' ? s.payment.amount : -s.payment.amount;
          out.push({
            date: s.payment.date,
            description: `payment ${s.payment.id}`,
            postings: [
              [s.payment.bank, money],
              [control[s.doc.kind], -money],
            ],
          });
        }
        break;
      case 'note':
        if (s.note.status === 'issued') {
          out.push({
            date: s.note.date,
            description: `credit note ${s.note.id}`,
            postings: documentPostings(s.note.kind, s.note.lines, -lineSign(s.note.kind) as 1 | -1),
          });
        }
        break;
      case 'refund':
        if (s.refund.live) {
          const money = s.note.kind === 'sales' ? -s.refund.amount : s.refund.amount;
          out.push({
            date: s.refund.date,
            description: `refund ${s.refund.id}`,
            postings: [
              [s.refund.bank, money],
              [control[s.note.kind], -money],
            ],
          });
        }
        break;
      case 'journal':
        if (s.journal.posted) out.push({ date: s.journal.date, description: 'journal', postings: s.journal.lines });
        break;
    }
  }
  return out;
}

type Root = 'assets' | 'liabilities' | 'equity' | 'revenues' | 'expenses';

const roots: readonly Root[] = ['assets', 'liabilities', 'equity', 'revenues', 'expenses'];

function rootOf(code: string): Root {
  const root = code === '9999' ? 'assets' : roots[Number(code[0]) - 1];
  if (!root) throw new Error(`no type for account ${code}`);
  return root;
}

/** Pounds from pence, by integer arithmetic. */
function pounds(pence: number): string {
  const abs = Math.abs(pence);
  return `${pence < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Postings merged by account, zero amounts left out (hledger and beancount accept either; this keeps entries short). */
function merged(postings: readonly (readonly [string, number])[]): [string, number][] {
  const by = new Map<string, number>();
  for (const [code, amount] of postings) by.set(code, (by.get(code) ?? 0) + amount);
  return [...by].filter(([, amount]) => amount !== 0);
}

export function hledgerJournal(entries: readonly Entry[]): string {
  return entries
    .map((e) => {
      const postings = merged(e.postings);
      if (postings.length === 0) return '';
      const lines = postings.map(([code, amount]) => `    ${rootOf(code)}:${code}  ${amount < 0 ? '-£' + pounds(-amount) : '£' + pounds(amount)}\n`);
      return `${e.date} ${e.description}\n${lines.join('')}\n`;
    })
    .join('');
}

const beanRoots: Readonly<Record<Root, string>> = { assets: 'Assets', liabilities: 'Liabilities', equity: 'Equity', revenues: 'Income', expenses: 'Expenses' };

export function beancountFile(entries: readonly Entry[]): string {
  const codes = [...new Set(entries.flatMap((e) => e.postings.map(([code]) => code)))].sort();
  const name = (code: string) => `${beanRoots[rootOf(code)]}:${code}`;
  const opens = codes.map((code) => `2000-01-01 open ${name(code)} GBP\n`).join('');
  const body = entries
    .map((e) => {
      const postings = merged(e.postings);
      if (postings.length === 0) return '';
      return `${e.date} * "${e.description}"\n${postings.map(([code, amount]) => `  ${name(code)}  ${pounds(amount)} GBP\n`).join('')}\n`;
    })
    .join('');
  return `option "operating_currency" "GBP"\n\n${opens}\n${body}`;
}
