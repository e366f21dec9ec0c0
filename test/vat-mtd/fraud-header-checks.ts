/**
 * What HMRC's "Send fraud prevention data" (v3.3) asks of a DESKTOP_APP_DIRECT
 * application, as the stand-in checks it on every API call: all 14 headers
 * present, none null, each value in its documented format, items and
 * key-value pairs percent-encoded with the separators (= & ,) left bare.
 * Written from HMRC's specification, not from acct's code.
 */
import net from 'node:net';

export const desktopAppDirectHeaders = [
  'gov-client-connection-method',
  'gov-client-device-id',
  'gov-client-user-ids',
  'gov-client-timezone',
  'gov-client-local-ips',
  'gov-client-local-ips-timestamp',
  'gov-client-mac-addresses',
  'gov-client-multi-factor',
  'gov-client-screens',
  'gov-client-window-size',
  'gov-client-user-agent',
  'gov-vendor-version',
  'gov-vendor-license-ids',
  'gov-vendor-product-name',
] as const;

/** Headers that acct can always fill on a desktop: an empty value there is a fault. */
const neverEmpty = new Set([
  'gov-client-connection-method',
  'gov-client-device-id',
  'gov-client-user-ids',
  'gov-client-timezone',
  'gov-client-local-ips-timestamp',
  'gov-client-user-agent',
  'gov-vendor-version',
  'gov-vendor-product-name',
]);

/** RFC 3986 percent-encoded text: unreserved characters and %XX (upper-case hex) only. */
const encoded = /^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})+$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const utcTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const mac = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/i;

/** key=value&key=value, each part encoded; the keys in order, or any keys when `keys` is not given. */
function keyValueFaults(value: string, keys?: readonly string[]): string[] {
  const pairs = value.split('&').map((p) => p.split('='));
  const faults: string[] = [];
  for (const pair of pairs) {
    if (pair.length !== 2) faults.push(`"${pair.join('=')}" is not one key=value`);
    else if (!encoded.test(pair[0]!) || (pair[1] !== '' && !encoded.test(pair[1]!))) faults.push(`"${pair.join('=')}" is not percent-encoded`);
  }
  if (keys && pairs.map((p) => p[0]).join('&') !== keys.join('&')) faults.push(`keys ${pairs.map((p) => p[0]).join(',')} are not ${keys.join(',')}`);
  return faults;
}

function listFaults(value: string, item: (decoded: string) => boolean, what: string): string[] {
  return value.split(',').flatMap((raw) => {
    if (!encoded.test(raw)) return [`${what} "${raw}" is not percent-encoded`];
    return item(decodeURIComponent(raw)) ? [] : [`"${decodeURIComponent(raw)}" is not ${what}`];
  });
}

function formatFaults(name: string, value: string): string[] {
  switch (name) {
    case 'gov-client-connection-method':
      return value === 'DESKTOP_APP_DIRECT' ? [] : [`is ${value}, not DESKTOP_APP_DIRECT`];
    case 'gov-client-device-id':
      return uuid.test(value) ? [] : ['is not a UUID'];
    case 'gov-client-user-ids':
      return keyValueFaults(value);
    case 'gov-client-timezone':
      return /^UTC[+-](?:[01]\d|2[0-3]):[0-5]\d$/.test(value) ? [] : ['is not UTC±hh:mm'];
    case 'gov-client-local-ips':
      return listFaults(value, (ip) => net.isIP(ip.replace(/%.*$/, '')) !== 0, 'an IP address');
    case 'gov-client-local-ips-timestamp':
      return utcTimestamp.test(value) ? [] : ['is not yyyy-MM-ddThh:mm:ss.sssZ'];
    case 'gov-client-mac-addresses':
      return listFaults(value, (m) => mac.test(m), 'a MAC address');
    case 'gov-client-screens':
      return value.split(',').flatMap((s) => keyValueFaults(s, ['width', 'height', 'scaling-factor', 'colour-depth']));
    case 'gov-client-window-size':
      return keyValueFaults(value, ['width', 'height']);
    case 'gov-client-user-agent': {
      const faults = keyValueFaults(value, ['os-family', 'os-version', 'device-manufacturer', 'device-model']);
      return /os-family=[^&]+&os-version=[^&]+/.test(value) ? faults : [...faults, 'has no os-family or os-version'];
    }
    case 'gov-client-multi-factor':
      return value.split(',').flatMap((s) => keyValueFaults(s, ['type', 'timestamp', 'unique-reference']));
    case 'gov-vendor-version':
    case 'gov-vendor-license-ids':
      return keyValueFaults(value);
    case 'gov-vendor-product-name':
      return encoded.test(value) ? [] : ['is not percent-encoded'];
    default:
      return [];
  }
}

/** Everything wrong with the fraud prevention headers of one request; empty when nothing is. */
export function fraudHeaderFaults(headers: Readonly<Record<string, string | string[] | undefined>>): string[] {
  const faults: string[] = [];
  for (const name of desktopAppDirectHeaders) {
    const value = headers[name];
    if (value === undefined) faults.push(`${name} is missing`);
    else if (Array.isArray(value)) faults.push(`${name} is sent more than once`);
    else if (/^(null|nil|undefined)$/i.test(value)) faults.push(`${name} is ${value}: HMRC refuses null values`);
    else if (value === '') {
      if (neverEmpty.has(name)) faults.push(`${name} is empty`);
    } else faults.push(...formatFaults(name, value).map((f) => `${name} ${f}: ${value}`));
  }
  return faults;
}
