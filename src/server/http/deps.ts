// Everything a route needs, built once at start (app.ts) and passed down.
import type { Auth } from '../auth/auth';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { Mailer, MailTransport } from '../mail/mailer';
import type { PaymentProvider } from '../payments/provider';
import type { FacePool } from '../faces/pool';
import type { EventBus } from '../realtime/bus';
import type { Storage } from '../storage/storage';
import type { RateLimiter } from './rate-limit';

export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  mailTransport: MailTransport;
  jobs: JobQueue;
  storage: Storage;
  auth: Auth;
  limiter: RateLimiter;
  bus: EventBus;
  /** Who takes payments (payments/provider.ts). */
  payments: PaymentProvider;
  /** Face worker threads (faces/pool.ts), started on first use. */
  faces: FacePool;
}
