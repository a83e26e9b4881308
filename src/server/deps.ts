// Everything a route and a job needs, built once at start (server.ts buildDeps) and passed down.
// It lives at the top with the entry points that assemble it: the layers below (http/, jobs/)
// know no domain.
import type { Auth } from './auth/auth';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { JobQueue } from './jobs/queue';
import type { Mailer, MailTransport } from './mail/mailer';
import type { PaymentProvider } from './payments/provider';
import type { FacePool } from './faces/pool';
import type { EventBus } from './realtime/bus';
import type { Storage } from './storage/storage';
import type { RateLimiter } from './http/rate-limit';

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
