// Builds the whole product from a configuration and serves it: used by `npm start`, the
// end-to-end tests and the integration tests alike, so they all run the same thing.
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app';
import { createAuth } from './auth/auth';
import { cacheViewers } from './auth/viewer-cache';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import type { AppDeps } from './deps';
import { RateLimiter } from './http/rate-limit';
import { startAdminChannel } from './admin/channel';
import { confirmPendingConsent } from './faces/references';
import { confirmPendingParentalConsent } from './profiles/parental-consent';
import { startUploadExpiry } from './uploads/admin-tus';
import { startWorker, stopWorker } from './background';
import { JobQueue } from './jobs/queue';
import { installFaceDataKey } from './faces/face-data-seal';
import { createFacePool } from './faces/pool';
import { createMailer, createMailTransport } from './mail/mailer';
import { createPaymentProvider } from './payments/providers';
import { createEventBus, isSessionNotice } from './realtime/bus';
import { createStorage } from './storage/storage';

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  close(): Promise<void>;
}

export async function buildDeps(config: Config, opts: { database?: Database } = {}): Promise<AppDeps> {
  const database =
    opts.database ?? (await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') }));
  await database.migrate();
  const jobs = new JobQueue(database, {
    queues: { 'mail.deliver': { retryDelay: config.mailRetryDelaySeconds, retryDelayMax: config.mailRetryDelayMaxSeconds } },
    pollingIntervalSeconds: database.kind === 'pglite' ? 5 : 2,
    heartbeatSeconds: config.jobHeartbeatSeconds,
  });
  await jobs.start();
  const mailTransport = createMailTransport({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'mail'),
    logLinks: config.logMailLinks,
  });
  const mailer = createMailer(jobs, mailTransport);
  const storage = createStorage(config);
  const db = database.db;
  // Set once the rest is built: confirming an address starts the consent given at registration.
  let onEmailVerified: ((userId: string) => Promise<void>) | null = null;
  const auth = createAuth({ config, db, mailer, onEmailVerified: (userId) => onEmailVerified?.(userId) ?? Promise.resolve() });
  const bus = await createEventBus(database);
  const onSessionNotice = (forget: (userId: string) => void) => bus.subscribe((event) => isSessionNotice(event) && forget(event.userId));
  cacheViewers(auth, onSessionNotice, config.sessionCacheSeconds * 1000);
  const payments = createPaymentProvider({ config, db, jobs });
  const faces = createFacePool(config.faces.workers);
  installFaceDataKey(config.faces.dataKey);
  const deps: AppDeps = { config, database, db, jobs, mailer, mailTransport, storage, auth, bus, payments, faces, limiter: new RateLimiter(db, config.rateLimitScale) };
  // The parent's consent for a child first (it completes the athlete's profile), then face matching's.
  onEmailVerified = async (userId) => {
    await confirmPendingParentalConsent(deps, userId);
    await confirmPendingConsent(deps, userId);
  };
  return deps;
}

export async function startServer(config: Config, opts: { database?: Database; adminChannel?: boolean } = {}): Promise<RunningServer> {
  const deps = await buildDeps(config, opts);
  if (config.runWorker) await startWorker(deps);
  // On the embedded database, `npm run admin` reaches it through the server (admin/channel.ts).
  const closeChannel = deps.database.kind === 'pglite' && opts.adminChannel !== false ? await startAdminChannel(deps, config.dataDir) : null;
  const app = createApp(deps);
  // Each server removes the abandoned uploads on its own disk (unfinished uploads live there).
  const stopUploadExpiry = startUploadExpiry(config);
  // A port already taken is an error to report, not an exception nobody catches.
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    deps,
    async close() {
      stopUploadExpiry();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeChannel?.();
      await stopWorker(deps);
      await deps.faces.close();
      await deps.bus.close();
      await deps.database.close();
    },
  };
}
