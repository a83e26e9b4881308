import { describe, expect, it } from 'vitest';
import { loadPayments } from './config';

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
