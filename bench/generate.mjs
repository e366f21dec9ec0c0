// A seeded generator of realistic UK small-business ledgers as a journal
// (JSON Lines, accounts by code, pence): sales with VAT and their receipts,
// purchases with VAT and their payments, wages, bank fees and journals,
// 2 to 6 lines each, over several years. Same seed, same file.
import fs from 'node:fs';

function seeded(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Sales on credit go through 1150, not 1100: 1100 is kept by invoices, and a journal import refuses lines there.
const debtors = '1150';
const expenseCodes = ['5000', '5100', '5300', '5400', '5500', '5600', '5700', '5900', '5910'];

export function* journal(count, seed = 7) {
  const random = seeded(seed);
  const amount = (lo, hi) => Math.round(lo + random() * (hi - lo));
  const day0 = Date.UTC(2019, 3, 6);
  const span = 6 * 365;
  for (let i = 0; i < count; i++) {
    const date = new Date(day0 + Math.floor((i / count) * span) * 86_400_000).toISOString().slice(0, 10);
    const kind = random();
    let lines;
    let description;
    if (kind < 0.3) {
      const items = 1 + Math.floor(random() * 3);
      lines = [];
      let gross = 0;
      for (let k = 0; k < items; k++) {
        const net = amount(1_000, 250_000);
        const vat = Math.round(net * 0.2);
        lines.push({ accountCode: k === 2 ? '4100' : '4000', amount: -net, vatRate: 20, vatTreatment: 'exclusive' }, { accountCode: '2200', amount: -vat });
        gross += net + vat;
      }
      lines.unshift({ accountCode: debtors, amount: gross });
      lines = lines.slice(0, 6);
      lines[0].amount = -lines.slice(1).reduce((s, l) => s + l.amount, 0);
      description = `Invoice INV-${10_000 + i}`;
    } else if (kind < 0.55) {
      const gross = amount(1_200, 300_000);
      lines = [{ accountCode: '1200', amount: gross }, { accountCode: debtors, amount: -gross }];
      description = `Receipt for INV-${10_000 + i - 1}`;
    } else if (kind < 0.8) {
      const net = amount(500, 120_000);
      const vat = Math.round(net * 0.2);
      lines = [
        { accountCode: expenseCodes[Math.floor(random() * expenseCodes.length)], amount: net, vatRate: 20, vatTreatment: 'exclusive' },
        { accountCode: '2201', amount: vat },
        { accountCode: '1200', amount: -(net + vat) },
      ];
      description = `Supplier bill ${i}`;
    } else if (kind < 0.9) {
      const gross = amount(2_000, 400_000);
      const fee = amount(0, 50) === 0 ? 0 : amount(20, 300);
      lines = [{ accountCode: '5930', amount: gross }, { accountCode: '2210', amount: -Math.round(gross * 0.2) }, { accountCode: '1200', amount: -(gross - Math.round(gross * 0.2)) }];
      if (fee > 0) lines.push({ accountCode: '5800', amount: fee }, { accountCode: '1200', amount: -fee });
      description = `Payroll ${date.slice(0, 7)}`;
    } else {
      const a = amount(100, 50_000);
      lines = [{ accountCode: '5950', amount: a }, { accountCode: '1090', amount: -a }];
      description = `Depreciation journal ${i}`;
    }
    yield JSON.stringify({ date, description, reference: `R${i}`, lines });
  }
}

export function parseSize(text) {
  const m = /^(\d+)(k|m)?$/i.exec(text);
  if (!m) throw new Error(`size like 10k, 100k or 1m, not ${text}`);
  return Number(m[1]) * ({ k: 1_000, m: 1_000_000 }[(m[2] ?? '').toLowerCase()] ?? 1);
}

export function writeJournal(file, count, seed) {
  const fd = fs.openSync(file, 'w');
  let buffer = [];
  for (const line of journal(count, seed)) {
    buffer.push(line);
    if (buffer.length === 10_000) {
      fs.writeSync(fd, `${buffer.join('\n')}\n`);
      buffer = [];
    }
  }
  if (buffer.length > 0) fs.writeSync(fd, `${buffer.join('\n')}\n`);
  fs.closeSync(fd);
}
