/** Companies House numbers: eight characters, digits padded with zeros as Companies House writes them. */
import t from 'tap';
import { checkCompanyNumber } from '../../src/engine/organisation/company-number.js';

t.test('eight digits, or two letters and six, stored in upper case without spaces', async (t) => {
  const cases: [string, string][] = [
    ['01234567', '01234567'],
    ['1234567', '01234567'],
    ['42', '00000042'],
    ['SC123456', 'SC123456'],
    ['sc 123456', 'SC123456'],
    ['SC12345', 'SC012345'],
    ['NI012345', 'NI012345'],
    ['OC301234', 'OC301234'],
    ['SO300123', 'SO300123'],
    ['NC000123', 'NC000123'],
    ['R0000123', 'R0000123'],
  ];
  for (const [typed, stored] of cases) {
    t.same(checkCompanyNumber(typed), { value: stored }, typed);
  }
});

t.test('anything else is refused', async (t) => {
  for (const bad of ['123456789', 'SC1234567', 'S1234567', 'SCO12345', '00000000', 'ABC', '12-34-56-78-9', 'R123456']) {
    t.match(checkCompanyNumber(bad), { problem: /^must be 8 characters/ }, bad);
  }
});
