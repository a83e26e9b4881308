// The caller's address, as rate limits and sessions see it.
//
// Behind proxies, each proxy appends the address it received the request from to
// X-Forwarded-For, so only the right-most entries were written by proxies we run; everything to
// their left was written by the client and may be forged. With TRUST_PROXY=N (N proxies of our
// own in front of the server) the client is the entry N hops from the right, counting the
// socket's peer as hop 0, the way well-known proxy-aware servers count.
import { isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same caller. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

function socketAddress(c: Context): string {
  try {
    return normalizeAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * The client address for a request: the socket's peer, or with `trustedHops` proxies of our
 * own in front, the X-Forwarded-For entry that the outermost of them added. When the header has
 * fewer entries than that, the left-most one is the best there is (it was written by a proxy
 * of ours, as the chain is shorter than the trusted part).
 */
export function clientIp(c: Context, trustedHops: number): string {
  const peer = socketAddress(c);
  if (trustedHops <= 0) return peer;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => normalizeAddress(entry))
    .filter(Boolean);
  const chain = [...forwarded, peer];
  const candidate = chain[Math.max(0, chain.length - 1 - trustedHops)]!;
  // A malformed entry cannot be an address; count the request against the proxy instead.
  return isIP(candidate) ? candidate : peer;
}

/**
 * The subject a per-address rate limit counts: an IPv4 address, or the /64 network of an IPv6
 * address (one household or phone gets a whole /64 and can rotate through it at will).
 */
export function addressBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
