import t from 'tap';
import { voucherCanonicalJson, voucherHash, type VoucherHashFields } from '../../src/pdf/voucher-hash.js';

const fields: VoucherHashFields = {
  companyName: 'Acme Widgets Ltd',
  companyNumber: '01234567',
  voucherNumber: 'DIV-0001',
  shareholderName: 'Jane Smith',
  shareClass: 'Ordinary',
  sharesHeld: 100,
  amountPence: 250000,
  declaredDate: '2026-10-01',
  resolutionReference: 'BM-2026-001',
};

// By hand, outside the code:
// echo -n '{"amountPence":250000,"companyName":"Acme Widgets Ltd","companyNumber":"01234567","declaredDate":"2026-10-01","resolutionReference":"BM-2026-001","shareClass":"Ordinary","shareholderName":"Jane Smith","sharesHeld":100,"voucherNumber":"DIV-0001"}' | sha256sum
// d87c89a5b035c99e083db53eee5e762ab8ceb16739d2baa135295a0ceeafc8bc  → first 16, upper case, in fours: D87C-89A5-B035-C99E
const canonical =
  '{"amountPence":250000,"companyName":"Acme Widgets Ltd","companyNumber":"01234567","declaredDate":"2026-10-01","resolutionReference":"BM-2026-001","shareClass":"Ordinary","shareholderName":"Jane Smith","sharesHeld":100,"voucherNumber":"DIV-0001"}';

t.test('the canonical JSON and its hash, as worked out by hand', async (t) => {
  t.equal(voucherCanonicalJson(fields), canonical, 'keys sorted, no spaces');
  t.equal(voucherHash(fields), 'D87C-89A5-B035-C99E');
  t.match(voucherHash(fields), /^[0-9A-F]{4}(-[0-9A-F]{4}){3}$/);
});

t.test('identical content, identical hash: key order and fields outside the list do not count', async (t) => {
  const reordered: VoucherHashFields = {
    resolutionReference: 'BM-2026-001',
    declaredDate: '2026-10-01',
    amountPence: 250000,
    sharesHeld: 100,
    shareClass: 'Ordinary',
    shareholderName: 'Jane Smith',
    voucherNumber: 'DIV-0001',
    companyNumber: '01234567',
    companyName: 'Acme Widgets Ltd',
  };
  t.equal(voucherHash(reordered), 'D87C-89A5-B035-C99E');
  // A caller may pass its whole dividend: status and payment are not content, and a voucher keeps its hash when paid.
  const wider = { ...fields, status: 'paid', paidDate: '2026-10-15', paymentMethod: 'cheque' };
  t.equal(voucherHash(wider), 'D87C-89A5-B035-C99E');
});

t.test('a name typed with a combining accent is the same name', async (t) => {
  const composed = voucherHash({ ...fields, shareholderName: 'Zo\u00eb Bront\u00eb' });
  const decomposed = voucherHash({ ...fields, shareholderName: 'Zoe\u0308 Bronte\u0308' });
  t.equal(decomposed, composed);
});

t.test('any listed field changed, a different hash', async (t) => {
  const changes: Partial<VoucherHashFields>[] = [
    { companyName: 'Acme Widgets Limited' },
    { companyNumber: '01234568' },
    { companyNumber: null },
    { voucherNumber: 'DIV-0002' },
    { shareholderName: 'Jane Smyth' },
    { shareClass: 'A Ordinary' },
    { sharesHeld: 101 },
    { amountPence: 250001 },
    { declaredDate: '2026-10-02' },
    { resolutionReference: 'BM-2026-002' },
  ];
  const seen = new Set([voucherHash(fields)]);
  for (const change of changes) {
    const hash = voucherHash({ ...fields, ...change });
    t.not(hash, 'D87C-89A5-B035-C99E', JSON.stringify(change));
    seen.add(hash);
  }
  t.equal(seen.size, changes.length + 1, 'all different from each other too');
  // Two fields' values swapped: each value is tied to its key, so it is another voucher.
  t.not(voucherHash({ ...fields, shareholderName: 'Ordinary', shareClass: 'Jane Smith' }), voucherHash(fields));
});
