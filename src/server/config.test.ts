import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFaceDataKey, loadPayments } from './config';

describe('the payment provider from the environment', () => {
  it('is the built-in test checkout without a Stripe key', () => {
    expect(loadPayments({})).toEqual({ driver: 'local' });
  });

  it('is Stripe with a key and a webhook secret; a key alone is refused', () => {
    expect(loadPayments({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toEqual({
      driver: 'stripe',
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      apiUrl: null,
    });
    expect(() => loadPayments({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow('STRIPE_WEBHOOK_SECRET');
  });

  it('in production, runs the test checkout only when asked for by name', () => {
    expect(() => loadPayments({ NODE_ENV: 'production' })).toThrow('No STRIPE_SECRET_KEY in production');
    expect(loadPayments({ NODE_ENV: 'production', PAYMENTS: 'local' })).toEqual({ driver: 'local' });
  });
});

describe('the face data key from the environment (issue 33, finding 7)', () => {
  const key = Buffer.alloc(32, 7).toString('base64');

  it('in production, refuses to start without FACE_DATA_KEY and writes no key beside the data', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-key-'));
    try {
      expect(() => loadFaceDataKey({ NODE_ENV: 'production' }, dataDir)).toThrow(
        'No FACE_DATA_KEY in production: face data must not be sealed with a key kept beside it in DATA_DIR. Make one with: openssl rand -base64 32',
      );
      expect(fs.readdirSync(dataDir)).toEqual([]);
      expect(loadFaceDataKey({ NODE_ENV: 'production', FACE_DATA_KEY: key }, dataDir)).toEqual(Buffer.alloc(32, 7));
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("in production with a key file left from before, says where the key to move is", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-key-'));
    try {
      fs.writeFileSync(path.join(dataDir, 'face-data.key'), key);
      expect(() => loadFaceDataKey({ NODE_ENV: 'production' }, dataDir)).toThrow(`This server's key so far is in ${path.join(dataDir, 'face-data.key')}: set FACE_DATA_KEY to its contents`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('outside production, makes one in the data folder once and keeps it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-key-'));
    try {
      const first = loadFaceDataKey({}, dataDir);
      expect(first).toHaveLength(32);
      expect(loadFaceDataKey({}, dataDir)).toEqual(first);
      expect(() => loadFaceDataKey({ FACE_DATA_KEY: 'c2hvcnQ=' }, dataDir)).toThrow('FACE_DATA_KEY must be 32 bytes in base64');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
