// Authenticator-app codes computed the way a phone does (RFC 6238: HMAC-SHA1 over the 30-second
// step, 6 digits), from the secret in the otpauth URI the product gives at enrolment.
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The base32 secret of an otpauth://totp/… URI. */
export function secretOfUri(uri: string): string {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
}

/** The code for `secret` (base32) at `time`, `steps` 30-second steps away (-1: the previous code). */
export function totp(secret: string, { time = Date.now(), steps = 0, period = 30, digits = 6 } = {}): string {
  const counter = Math.floor(time / 1000 / period) + steps;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const number = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(number).padStart(digits, '0');
}

/** A code that is none of the accepted ones (previous, current, next step). */
export function wrongTotp(secret: string): string {
  const accepted = new Set([-1, 0, 1].map((steps) => totp(secret, { steps })));
  for (let n = 0; ; n++) {
    const code = String((Number(totp(secret)) + 1 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}
