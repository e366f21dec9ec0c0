/**
 * Values stored in one form whichever way they came in: a postcode typed
 * ls11aa is LS1 1AA for the organisation (acct init, organisation update)
 * and for a contact (contacts create, update), as contact imports already
 * store it; a contact's VAT number typed GB 980 7806 84 is GB980780684, as
 * the organisation's own is. Text that is no VAT number is kept as given.
 */
import t from 'tap';
import { acctJson, init } from './support.js';

const company = ['--name', 'Dales Pottery Ltd', '--business-type', 'limited_company', '--vat-scheme', 'standard'];

t.test("the organisation's postcode: init and organisation update", async (t) => {
  const dir = t.testdir();
  // It was stored as typed: ls11aa.
  await init(t, dir, [...company, '--postal-code', 'ls11aa']);
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).address.postalCode, 'LS1 1AA');
  await acctJson(t, dir, ['organisation', 'update', '--postal-code', ' sw1a   1aa ']);
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).address.postalCode, 'SW1A 1AA');
  await acctJson(t, dir, ['organisation', 'update', '--postal-code', '']);
  t.equal((await acctJson(t, dir, ['organisation', 'get'])).address.postalCode, null, 'an empty postcode still clears it');
});

t.test("a contact's postcode and VAT number: contacts create and update", async (t) => {
  const dir = t.testdir();
  await init(t, dir, company);
  const created = await acctJson(t, dir, [
    'contacts',
    'create',
    '--contact-type',
    'supplier',
    '--name',
    'Leeds Clay Co',
    '--postal-code',
    'ls11aa',
    '--vat-number',
    'GB 980 7806 84',
  ]);
  // They were stored as typed: ls11aa and "GB 980 7806 84".
  t.equal(created.postalCode, 'LS1 1AA');
  t.equal(created.vatNumber, 'GB980780684', "as the organisation's is stored");
  const get = () => acctJson(t, dir, ['contacts', 'get', created.id]);
  await acctJson(t, dir, ['contacts', 'update', created.id, '--postal-code', 'm11ae', '--vat-number', 'de 123.456.789']);
  const updated = await get();
  t.equal(updated.postalCode, 'M1 1AE');
  t.equal(updated.vatNumber, 'DE123456789', "another country's number takes the same form");
  await acctJson(t, dir, ['contacts', 'update', created.id, '--postal-code', '1012 ab', '--vat-number', 'applied for']);
  const foreign = await get();
  t.equal(foreign.postalCode, '1012 AB', 'a postcode not of the UK: capitals, single spaces');
  t.equal(foreign.vatNumber, 'applied for', 'text that is no VAT number is kept as given');
});
