// Picks the payment provider from the configuration: Stripe with STRIPE_SECRET_KEY, else the
// built-in test checkout.
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import { createLocalProvider } from './local-provider';
import type { PaymentProvider } from './provider';
import { createStripeProvider } from './stripe-provider';

export function createPaymentProvider(deps: { config: Config; db: Db; jobs: JobQueue }): PaymentProvider {
  const { payments } = deps.config;
  return payments.driver === 'stripe' ? createStripeProvider(payments) : createLocalProvider(deps);
}
