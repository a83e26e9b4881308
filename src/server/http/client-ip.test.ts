import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../config';
import { addressBucket, normalizeAddress } from './client-ip';

describe('client addresses', () => {
  it('an IPv4-mapped IPv6 address is the IPv4 address', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress(' [2001:DB8::1] ')).toBe('2001:db8::1');
  });

  it('IPv6 callers are counted by their /64 network; IPv4 by their address', () => {
    expect(addressBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('unknown')).toBe('unknown');
  });

  it('TRUST_PROXY is a number of proxies', () => {
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(parseTrustProxy('false')).toBe(0);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('3')).toBe(3);
    expect(() => parseTrustProxy('yes')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('-1')).toThrow(/TRUST_PROXY/);
  });
});
