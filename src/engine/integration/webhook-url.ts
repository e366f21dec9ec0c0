/**
 * Where webhooks may be sent: HTTPS URLs whose host resolves only to public
 * addresses. Loopback, private, link-local, unspecified and other special
 * ranges are refused (server-side request forgery), at registration and
 * again before every delivery, unless the server allows them
 * (--allow-private-webhooks); --allow-http-webhooks permits plain http.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { AppError } from '../errors.js';
import type { WebhookPolicy } from '../webhook-policy.js';

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['64:ff9b::', 96],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** Whether an IP address is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
}

/** Check a webhook URL against the policy; the parsed URL. 400 on `field` when refused. */
export async function checkWebhookUrl(url: string, policy: WebhookPolicy, field = 'url'): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('validation_error', `${field} must be an absolute URL such as https://example.com/hooks`, field);
  }
  const httpOk = policy.allowHttp && parsed.protocol === 'http:';
  if (parsed.protocol !== 'https:' && !httpOk) throw new AppError('validation_error', `${field} must be an https:// URL`, field);
  if (parsed.username || parsed.password) throw new AppError('validation_error', `${field} must not carry a user name or password`, field);
  if (policy.allowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new AppError('validation_error', `${field}: the host ${host} does not resolve`, field);
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad !== undefined || addresses.length === 0) {
    throw new AppError(
      'validation_error',
      `${field}: ${host} resolves to ${bad ?? 'nothing'}, a loopback, private or link-local address, where webhooks are not sent`,
      field,
    );
  }
  return parsed;
}
