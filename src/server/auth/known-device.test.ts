import { describe, expect, it } from 'vitest';
import { accountTag, isKnownDevice, KNOWN_DEVICE_COOKIE, knownDeviceCookie } from './known-device';

const secret = 'test-secret';
const cookieHeader = (setCookie: string) => setCookie.split(';')[0]!;

describe('known-device cookie', () => {
  it('a browser that signed in to an account is known for that account only', () => {
    const header = cookieHeader(knownDeviceCookie(secret, undefined, 'Pat@Example.com', false));
    expect(isKnownDevice(secret, header, 'pat@example.com')).toBe(true);
    expect(isKnownDevice(secret, header, 'other@example.com')).toBe(false);
    expect(isKnownDevice('another-secret', header, 'pat@example.com')).toBe(false);
  });

  it('cannot be forged without the secret', () => {
    expect(isKnownDevice(secret, `${KNOWN_DEVICE_COOKIE}=${'a'.repeat(22)}`, 'pat@example.com')).toBe(false);
    expect(isKnownDevice(secret, `${KNOWN_DEVICE_COOKIE}=`, 'pat@example.com')).toBe(false);
    expect(isKnownDevice(secret, undefined, 'pat@example.com')).toBe(false);
  });

  it('remembers the five most recent accounts of a shared browser', () => {
    let header: string | undefined;
    for (let i = 1; i <= 6; i++) header = cookieHeader(knownDeviceCookie(secret, header, `kid${i}@example.com`, false));
    expect(isKnownDevice(secret, header, 'kid1@example.com')).toBe(false);
    for (let i = 2; i <= 6; i++) expect(isKnownDevice(secret, header, `kid${i}@example.com`)).toBe(true);
    expect(header!.split('=')[1]!.split('.')[0]).toBe(accountTag(secret, 'kid6@example.com'));
  });

  it('is HttpOnly, SameSite=Lax, scoped to the auth API, and Secure over https', () => {
    const plain = knownDeviceCookie(secret, undefined, 'pat@example.com', false);
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).toMatch(/SameSite=Lax/);
    expect(plain).toMatch(/Path=\/api\/auth/);
    expect(plain).not.toMatch(/Secure/);
    expect(knownDeviceCookie(secret, undefined, 'pat@example.com', true)).toMatch(/; Secure$/);
  });
});
