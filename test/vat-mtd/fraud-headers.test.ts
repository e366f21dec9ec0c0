/**
 * The fraud prevention headers acct sends (DESKTOP_APP_DIRECT): formatted
 * from the machine's facts as HMRC's specification writes them, checked
 * here against hand-written values, and the device id made once per data
 * directory and kept.
 */
import os from 'node:os';
import t from 'tap';
import { newBooks } from '../helpers/index.js';
import { fraudHeaders, fraudHeadersNow, percentEncode, utcOffset } from '../../src/engine/vat/mtd/fraud-headers.js';
import type { DeviceFacts } from '../../src/engine/vat/mtd/device-facts.js';
import { version } from '../../src/version.js';
import { fraudHeaderFaults } from './fraud-header-checks.js';

const facts: DeviceFacts = {
  userName: 'ACME\\Jo Bloggs',
  localIps: ['10.1.2.3', 'fe80::1%eth0', '2001:db8::7'],
  macAddresses: ['02:fc:00:00:00:01', 'ea:5f:11:0a:bc:de'],
  osFamily: 'Linux',
  osVersion: '6.8.0-45-generic',
  manufacturer: 'Dell Inc.',
  model: 'XPS 13 (9310)',
  screens: [{ width: 1920, height: 1080, scalingFactor: 1.25, colourDepth: 24 }],
  window: { width: 1256, height: 803 },
  utcOffsetMinutes: 60,
};

t.test('each header from hand-written facts, percent-encoded as HMRC asks', async (t) => {
  const at = new Date('2026-07-15T09:05:03.007Z');
  const h = fraudHeaders(facts, 'beec798b-b366-47fa-b1f8-92cede14a1ce', at);
  t.same(h, {
    'Gov-Client-Connection-Method': 'DESKTOP_APP_DIRECT',
    'Gov-Client-Device-ID': 'beec798b-b366-47fa-b1f8-92cede14a1ce',
    // \ is %5C, a space %20.
    'Gov-Client-User-IDs': 'os=ACME%5CJo%20Bloggs',
    'Gov-Client-Timezone': 'UTC+01:00',
    // IPv6 colons as %3A, the zone's % as %25; the commas between are bare.
    'Gov-Client-Local-IPs': '10.1.2.3,fe80%3A%3A1%25eth0,2001%3Adb8%3A%3A7',
    'Gov-Client-Local-IPs-Timestamp': '2026-07-15T09:05:03.007Z',
    'Gov-Client-MAC-Addresses': '02%3Afc%3A00%3A00%3A00%3A01,ea%3A5f%3A11%3A0a%3Abc%3Ade',
    'Gov-Client-Screens': 'width=1920&height=1080&scaling-factor=1.25&colour-depth=24',
    'Gov-Client-Window-Size': 'width=1256&height=803',
    // ( and ) are reserved characters: %28 and %29.
    'Gov-Client-User-Agent': 'os-family=Linux&os-version=6.8.0-45-generic&device-manufacturer=Dell%20Inc.&device-model=XPS%2013%20%289310%29',
    'Gov-Client-Multi-Factor': '',
    'Gov-Vendor-Version': `acct=${version}`,
    'Gov-Vendor-License-IDs': '',
    'Gov-Vendor-Product-Name': 'acct',
  });
  const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
  t.same(fraudHeaderFaults(lower), [], "the stand-in's checks agree");
});

t.test('what cannot be collected is sent empty, never null', async (t) => {
  const h = fraudHeaders(
    { ...facts, userName: null, localIps: [], macAddresses: [], screens: [], window: null, manufacturer: null, model: null },
    'beec798b-b366-47fa-b1f8-92cede14a1ce',
    new Date(),
  );
  t.equal(h['Gov-Client-User-IDs'], '');
  t.equal(h['Gov-Client-Local-IPs'], '');
  t.equal(h['Gov-Client-MAC-Addresses'], '');
  t.equal(h['Gov-Client-Screens'], '');
  t.equal(h['Gov-Client-Window-Size'], '');
  t.equal(h['Gov-Client-User-Agent'], 'os-family=Linux&os-version=6.8.0-45-generic&device-manufacturer=&device-model=');
  t.notOk(Object.values(h).some((v) => /null|undefined/.test(v)));
});

t.test('time zones as UTC±hh:mm', async (t) => {
  t.equal(utcOffset(0), 'UTC+00:00');
  t.equal(utcOffset(60), 'UTC+01:00');
  t.equal(utcOffset(330), 'UTC+05:30');
  t.equal(utcOffset(-180), 'UTC-03:00');
  t.equal(utcOffset(-570), 'UTC-09:30');
  t.equal(percentEncode("it's (a) test*!"), 'it%27s%20%28a%29%20test%2A%21');
});

t.test('gathered from this machine: its interfaces but loopback, its user, one device id kept in the data directory', async (t) => {
  const books = await newBooks(t, { clock: '2026-07-15T10:00:00Z' });
  const ctx = books.ctx();
  const h = await fraudHeadersNow(ctx);
  const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
  t.same(fraudHeaderFaults(lower), []);
  t.equal(h['Gov-Client-Local-IPs-Timestamp'], '2026-07-15T10:00:00.000Z', "the books' clock");
  const external = Object.values(os.networkInterfaces())
    .flatMap((l) => l ?? [])
    .filter((a) => !a.internal);
  const ips = (h['Gov-Client-Local-IPs'] ?? '').split(',').filter(Boolean).map(decodeURIComponent);
  t.same(new Set(ips), new Set(external.map((a) => a.address)), 'every address but loopback');
  t.notOk(ips.includes('127.0.0.1'), 'no loopback address');
  t.equal(h['Gov-Client-User-IDs'], `os=${percentEncode(os.userInfo().username)}`);

  const again = await fraudHeadersNow(ctx);
  t.equal(again['Gov-Client-Device-ID'], h['Gov-Client-Device-ID'], 'the same device id each call');
  const kept = await books.store.platform.db.selectFrom('platform_settings').select('value').where('key', '=', 'hmrc_device_id').executeTakeFirst();
  t.equal(kept?.value, h['Gov-Client-Device-ID'], 'kept in the platform database');

  const other = await newBooks(t);
  t.not((await fraudHeadersNow(other.ctx()))['Gov-Client-Device-ID'], h['Gov-Client-Device-ID'], 'another data directory, another device');
});
