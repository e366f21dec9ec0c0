/**
 * Where webhooks may be sent: HTTPS URLs whose host resolves only to global
 * unicast addresses, classified by ipaddr.js from the IANA special-purpose
 * registries. Loopback, private, link-local, documentation, benchmarking,
 * shared (CGNAT), multicast, reserved and transition ranges that can embed
 * any IPv4 address are refused (server-side request forgery): at
 * registration, before every delivery, and again at connection time on
 * every address the host name resolves to, unless the server allows them
 * (--allow-private-webhooks); --allow-http-webhooks permits plain http.
 */
import { lookup } from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.js';
import { assertOutsideTransaction } from '../external.js';
import type { WebhookPolicy } from '../webhook-policy.js';

/** Every address a host name resolves to. */
export type Resolve = (host: string) => Promise<readonly string[]>;

export const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

const globalIpv6 = ipaddr.IPv6.parseCIDR('2000::/3');
const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * ipaddr.js reads a dotted tail such as ::127.0.0.1 as IPv4-mapped
 * (::ffff:127.0.0.1); the hex form keeps the address the socket would use.
 */
function hexTail(address: string): string {
  return address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a: string, b: string, c: string, d: string) =>
    [Number(a) * 256 + Number(b), Number(c) * 256 + Number(d)].map((n) => n.toString(16)).join(':'),
  );
}

function isGlobalIpv4(ip: ipaddr.IPv4): boolean {
  return ip.range() === 'unicast';
}

/**
 * Whether an IP address is global unicast: IPv4 outside every special range,
 * IPv6 inside 2000::/3 and outside every special range, or the well-known
 * NAT64 prefix in front of a global IPv4 address (IPv6-only hosts reach IPv4
 * receivers that way). IPv4-mapped addresses are judged as the IPv4 inside;
 * 6to4, Teredo and the local-use NAT64 prefix are refused whatever they embed.
 */
export function isGlobalUnicast(address: string): boolean {
  const text = net.isIPv6(address) ? hexTail(address) : address;
  if (net.isIP(text) === 0 || !ipaddr.isValid(text)) return false;
  const ip = ipaddr.process(text);
  if (ip instanceof ipaddr.IPv4) return isGlobalIpv4(ip);
  if (ip.match(nat64)) return isGlobalIpv4(ipaddr.IPv4.parse(ip.toByteArray().slice(12).join('.')));
  return ip.range() === 'unicast' && ip.match(globalIpv6);
}

function refusal(field: string, host: string, address: string | undefined): string {
  return address === undefined
    ? `${field}: ${host} resolves to no address`
    : `${field}: ${host} resolves to ${address}, which is not a global unicast address (loopback, private, link-local, documentation, reserved and the like are refused), where webhooks are not sent`;
}

/** Check a webhook URL against the policy; the parsed URL. 400 on `field` when refused. */
export async function checkWebhookUrl(url: string, policy: WebhookPolicy, field = 'url', resolve: Resolve = systemResolve): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('validation_error', `${field} must be an absolute URL such as https://example.com/hooks`, field);
  }
  const httpOk = policy.allowHttp && parsed.protocol === 'http:';
  if (parsed.protocol !== 'https:' && !httpOk) throw new AppError('validation_error', `${field} must be an https:// URL`, field);
  if (parsed.username || parsed.password) throw new AppError('validation_error', `${field} must not carry a user name or password`, field);
  if (parsed.port === '0') throw new AppError('validation_error', `${field}: port 0 is not a port anything can be delivered to`, field);
  if (policy.allowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: readonly string[];
  // A lookup is a call to another service: never inside a write transaction (see external.ts).
  if (net.isIP(host) === 0) assertOutsideTransaction(`looking up the webhook host ${host}`);
  try {
    addresses = net.isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new AppError('validation_error', `${field}: the host ${host} does not resolve`, field);
  }
  const bad = addresses.find((a) => !isGlobalUnicast(a));
  if (bad !== undefined || addresses.length === 0) throw new AppError('validation_error', refusal(field, host, bad), field);
  return parsed;
}

/**
 * The lookup of a delivery's connection: resolves the host, and unless the
 * policy allows private addresses refuses the connection when any answer is
 * not global unicast, so a name that rebinds to 127.0.0.1 after the check
 * still reaches nothing.
 */
export function deliveryLookup(policy: WebhookPolicy, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = policy.allowPrivate ? undefined : addresses.find((a) => !isGlobalUnicast(a));
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
        const usable = addresses.filter((a) => family === 0 || net.isIP(a) === family);
        if (bad !== undefined || usable.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`webhook not sent: ${refusal('the host', hostname, bad)}`);
          error.code = bad === undefined ? 'ENOTFOUND' : 'EADDRNOTAVAIL';
          callback(error, '');
          return;
        }
        if (options.all)
          callback(
            null,
            usable.map((address) => ({ address, family: net.isIP(address) })),
          );
        else callback(null, usable[0] ?? '', net.isIP(usable[0] ?? ''));
      },
      (e: unknown) => callback(e as NodeJS.ErrnoException, ''),
    );
  };
}
