/**
 * HMRC's fraud prevention headers for the connection method
 * DESKTOP_APP_DIRECT ("Send fraud prevention data" v3.3, Developer Hub):
 * an installed application calling HMRC directly. All 14 are sent with
 * every call. Keys and values of key-value headers, and each item of a
 * list, are percent-encoded; the separators (= & ,) are not. Where a value
 * cannot be collected (a terminal program has no screen or window size) or
 * does not apply (acct has no sign-in of its own, hence no multi-factor
 * authentication, and no licence keys), the header is sent empty, as
 * HMRC's "Getting it right" allows, never as null.
 */
import type { Ctx } from '../../operation.js';
import { version } from '../../../version.js';
import { deviceId, gatherDeviceFacts, type DeviceFacts } from './device-facts.js';

export const connectionMethod = 'DESKTOP_APP_DIRECT';
export const productName = 'acct';

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - . _ ~. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** key=value&key=value, keys and values percent-encoded. */
const keyValues = (pairs: readonly (readonly [string, string])[]): string => pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');

/** UTC±hh:mm. */
export function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

/** The headers for one call at `at`, from the machine's facts and the installation's device id. */
export function fraudHeaders(facts: DeviceFacts, device: string, at: Date): Record<string, string> {
  return {
    'Gov-Client-Connection-Method': connectionMethod,
    'Gov-Client-Device-ID': device,
    'Gov-Client-User-IDs': facts.userName === null ? '' : keyValues([['os', facts.userName]]),
    'Gov-Client-Timezone': utcOffset(facts.utcOffsetMinutes),
    'Gov-Client-Local-IPs': facts.localIps.map(percentEncode).join(','),
    'Gov-Client-Local-IPs-Timestamp': at.toISOString(),
    'Gov-Client-MAC-Addresses': facts.macAddresses.map(percentEncode).join(','),
    'Gov-Client-Screens': facts.screens
      .map((s) =>
        keyValues([
          ['width', String(s.width)],
          ['height', String(s.height)],
          ['scaling-factor', String(s.scalingFactor)],
          ['colour-depth', String(s.colourDepth)],
        ]),
      )
      .join(','),
    'Gov-Client-Window-Size': facts.window
      ? keyValues([
          ['width', String(facts.window.width)],
          ['height', String(facts.window.height)],
        ])
      : '',
    'Gov-Client-User-Agent': keyValues([
      ['os-family', facts.osFamily],
      ['os-version', facts.osVersion],
      ['device-manufacturer', facts.manufacturer ?? ''],
      ['device-model', facts.model ?? ''],
    ]),
    'Gov-Client-Multi-Factor': '',
    'Gov-Vendor-Version': keyValues([[productName, version]]),
    'Gov-Vendor-License-IDs': '',
    'Gov-Vendor-Product-Name': percentEncode(productName),
  };
}

/** The headers for a call made now, gathered from this machine. */
export async function fraudHeadersNow(ctx: Ctx): Promise<Record<string, string>> {
  const at = ctx.clock.now();
  return fraudHeaders(gatherDeviceFacts(at), await deviceId(ctx.platform), at);
}
