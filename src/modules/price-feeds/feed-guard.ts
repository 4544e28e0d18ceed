// What a price feed may make the sync connect to. A feed's next-page links and redirects are the
// feed's text: a hostile or broken page could point the sync at the cloud's metadata service
// (169.254.169.254), an internal host, or the machine itself. So every address a connection is
// about to use is checked as it is looked up (undici's connect `lookup`), which a DNS answer that
// changes between a check and the connect cannot get around; address literals are checked before.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';

export type FeedGuardRule = 'OFF_ORIGIN' | 'FORBIDDEN_ADDRESS';

/** A request the feed guard refused; its message is ours, never the feed's text. */
export class FeedGuardError extends Error {
  constructor(
    readonly rule: FeedGuardRule,
    message: string,
  ) {
    super(message);
    this.name = 'FeedGuardError';
  }
}

/** Never connected to: link-local (cloud metadata), private, shared, multicast and reserved ranges. */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:169.254.169.254) is the IPv4 address. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopbackAddress(address: string): boolean {
  const a = normalise(address);
  return LOOPBACK.check(a.address, a.family);
}

/** A host name that means this machine: localhost, or a loopback address literal. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isLoopbackAddress(host);
}

/** Why a connection to `address` is refused, or null when it is allowed. */
export function forbiddenAddress(address: string, allowLoopback: boolean): string | null {
  const a = normalise(address);
  if (LOOPBACK.check(a.address, a.family)) return allowLoopback ? null : 'a loopback address (the configured endpoint is not on loopback)';
  if (FORBIDDEN.check(a.address, a.family)) return 'a private, link-local or reserved address';
  return null;
}

/** For a URL's host that is an address literal: the refusal, or null (names are checked when looked up). */
export function refuseAddressLiteral(hostname: string, allowLoopback: boolean): FeedGuardError | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) {
    if (!allowLoopback && isLoopbackHost(host))
      return new FeedGuardError('FORBIDDEN_ADDRESS', `${host} is a loopback host (the configured endpoint is not on loopback)`);
    return null;
  }
  const why = forbiddenAddress(host, allowLoopback);
  return why ? new FeedGuardError('FORBIDDEN_ADDRESS', `${host} is ${why}`) : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup for undici's connector that fails when any address the name resolves to is forbidden. */
export function checkedLookup(allowLoopback: () => boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses;
      for (const { address } of list) {
        const why = forbiddenAddress(address, allowLoopback());
        if (why) return callback(new FeedGuardError('FORBIDDEN_ADDRESS', `${hostname} resolves to ${address}, ${why}`), []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
