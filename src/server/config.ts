// Configuration, read once from the environment. Every variable is listed in the README.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPANY } from '../common/company';

export interface Config {
  port: number;
  host: string;
  /** The public address of the site, used in links inside e-mails and for origin checks. */
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  authSecret: string;
  /**
   * How many proxies of our own stand in front of the server (TRUST_PROXY). 0: the client
   * address is the socket's; N: the X-Forwarded-For entry N hops from the right.
   */
  trustProxy: number;
  /** The built web app (index.html and assets). */
  webDir: string;
  /** Folder whose desktop.mp4 / mobile.mp4 replace the built-in hero videos. */
  heroDir: string;
  /** Multiply every rate limit by this (tests use small windows; never 0). */
  rateLimitScale: number;
  /** Face index and footage (faces/): see the README's environment table. */
  faces: FaceSettings;
  /** Unfinished admin uploads (uploads/admin-tus.ts). */
  uploads: UploadSettings;
  /** Days after an event its game footage is kept, unless a request made still needs it (FOOTAGE_RETENTION_DAYS). */
  footageRetentionDays: number;
  /** Days a registration whose address was never confirmed is kept before it is erased (UNCONFIRMED_ACCOUNT_DAYS). */
  unconfirmedAccountDays: number;
  logMailLinks: boolean;
  /** The pause before a failed mail is retried the first time, in seconds (then doubling). */
  mailRetryDelaySeconds: number;
  /** The longest the doubling pause between a mail's tries may grow to, in seconds. */
  mailRetryDelayMaxSeconds: number;
  /** Run the job worker inside this process (`npm start`); `npm run worker` runs it alone. */
  runWorker: boolean;
  /** A running job renews its lease this often; a worker silent for three times as long is taken as gone. */
  jobHeartbeatSeconds: number;
  /**
   * How long a server may answer from its memory who a session cookie belongs to
   * (auth/viewer-cache.ts): the longest a revoked session can still work on an instance that
   * missed the database's notice. 0 turns the cache off.
   */
  sessionCacheSeconds: number;
  /** The bearer token GET /api/metrics asks for (METRICS_TOKEN); null: the endpoint answers 404. */
  metricsToken: string | null;
  /** S3-compatible storage; null keeps files on local disk under dataDir/storage. */
  s3: S3Config | null;
  /** Who takes payments: Stripe when STRIPE_SECRET_KEY is set, else the built-in test checkout. */
  payments: PaymentsConfig;
  /** What the team is told and where (team/notices.ts). */
  team: TeamMailSettings;
}

export interface TeamMailSettings {
  /** The team's address (TEAM_EMAIL; config/company.json's teamInbox when unset). */
  email: string;
  /** Mails a day before the rest waits for the daily summary (TEAM_MAILS_PER_DAY; 0: always the summary). */
  mailsPerDay: number;
  /** The hour, UTC, the daily summary goes out (TEAM_SUMMARY_HOUR). */
  summaryHourUtc: number;
}

export type PaymentsConfig =
  | {
      driver: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** Another address for Stripe's API (STRIPE_API_URL), e.g. stripe-mock or a test server; null: Stripe's own. */
      apiUrl: string | null;
    }
  | { driver: 'local' };

export interface S3Config {
  endpoint: string | null;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Path-style addressing (most self-hosted S3 servers need it). */
  forcePathStyle: boolean;
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** TRUST_PROXY: unset, 0 or false: no proxy; true or 1: one; a number N: N proxies in a row. */
export function parseTrustProxy(value: string | undefined): number {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false') return 0;
  if (v === 'true') return 1;
  const hops = Number(v);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
    throw new Error(`TRUST_PROXY must be a number of proxies (0-10), true or false; got "${value}"`);
  }
  return hops;
}

function loadS3(env: NodeJS.ProcessEnv): S3Config | null {
  if (!env.S3_BUCKET) return null;
  return {
    endpoint: env.S3_ENDPOINT || null,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    region: env.S3_REGION ?? 'us-east-1',
    forcePathStyle: env.S3_FORCE_PATH_STYLE !== '0',
  };
}

/**
 * STRIPE_SECRET_KEY picks Stripe, and then STRIPE_WEBHOOK_SECRET is needed: without it no payment
 * could ever be confirmed. Without a key the built-in test checkout takes payments, which accepts
 * test cards: in production (NODE_ENV=production) it must be asked for with PAYMENTS=local.
 */
export function loadPayments(env: NodeJS.ProcessEnv): PaymentsConfig {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (secretKey) {
    const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
    if (!webhookSecret) throw new Error('STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: payments could never be confirmed.');
    return { driver: 'stripe', secretKey, webhookSecret, apiUrl: env.STRIPE_API_URL?.trim() || null };
  }
  if (env.NODE_ENV === 'production' && env.PAYMENTS !== 'local') {
    throw new Error('No STRIPE_SECRET_KEY in production: set it, or PAYMENTS=local to run the test checkout (test cards, no money) on purpose.');
  }
  return { driver: 'local' };
}

/** The auth secret: from AUTH_SECRET, or made once and kept in the data folder. */
function loadSecret(dataDir: string): string {
  const fromEnv = process.env.AUTH_SECRET ?? process.env.BETTER_AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface FaceSettings {
  /** Frames sampled per second of footage (FACE_INDEX_FPS). */
  sampleFps: number;
  /** The fast detector looks at a frame shrunk to this many pixels on its long side (FACE_DETECT_SIZE). */
  detectInputSize: number;
  /** Days a footage file's face index is kept (FACE_INDEX_RETENTION_DAYS). */
  retentionDays: number;
  /**
   * Days after an event starts that families can ask for reels when the event names no last day
   * (FACE_REQUEST_WINDOW_DAYS); faces not matched to a request are deleted when the window closes.
   */
  requestWindowDays: number;
  /** The key face descriptors and crops are sealed with (FACE_DATA_KEY, or made once in the data folder). */
  dataKey: Buffer;
  /** Largest footage file, bytes (FOOTAGE_MAX_GB). */
  footageMaxBytes: number;
  /** Face worker threads in this process (FACE_WORKERS). */
  workers: number;
  /** One sample in this many is searched whole, the others only around live tracks (FACE_FULL_LOOK_EVERY). */
  fullLookEvery: number;
  /** Rows of regions each sample is searched for people in, 0 for none (PERSON_DETECT_ROWS; people/regions.ts). */
  personRows: number;
}

/**
 * The face data key: 32 bytes from FACE_DATA_KEY (base64), or, outside production, made once and
 * kept in the data folder. In production it must come from outside: a key in DATA_DIR sits in
 * the same backup as the database and the raw headshots it is meant to protect.
 */
export function loadFaceDataKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  if (env.FACE_DATA_KEY) {
    const key = Buffer.from(env.FACE_DATA_KEY, 'base64');
    if (key.length !== 32) throw new Error('FACE_DATA_KEY must be 32 bytes in base64 (for example: openssl rand -base64 32).');
    return key;
  }
  const file = path.join(dataDir, 'face-data.key');
  if (env.NODE_ENV === 'production') {
    const earlier = fs.existsSync(file) ? ` This server's key so far is in ${file}: set FACE_DATA_KEY to its contents, keep it apart from DATA_DIR's backups, then delete the file.` : '';
    throw new Error(`No FACE_DATA_KEY in production: face data must not be sealed with a key kept beside it in DATA_DIR. Make one with: openssl rand -base64 32, and keep it in the platform's secret store.${earlier}`);
  }
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

export interface UploadSettings {
  /** An unfinished upload that got no data for this long is removed (UPLOAD_ABANDON_HOURS). */
  abandonAfterMs: number;
  /** The bytes one admin's unfinished uploads may announce in all (UPLOAD_OPEN_GB_PER_ADMIN). */
  openBytesPerAdmin: number;
}

function loadUploadSettings(env: NodeJS.ProcessEnv): UploadSettings {
  const positive = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    abandonAfterMs: Math.round(positive(env.UPLOAD_ABANDON_HOURS, 24) * 60 * 60 * 1000),
    openBytesPerAdmin: Math.round(positive(env.UPLOAD_OPEN_GB_PER_ADMIN, 50) * 1024 ** 3),
  };
}

/** A whole number from min to max, or the fallback when the variable is unset or not a number. */
function wholeInRange(value: string | undefined, min: number, max: number, fallback: number): number {
  const n = Number(value);
  return value === undefined || value.trim() === '' || !Number.isFinite(n) ? fallback : Math.max(min, Math.min(max, Math.round(n)));
}

function loadFaceSettings(env: NodeJS.ProcessEnv, dataDir: string): FaceSettings {
  const positive = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    sampleFps: Math.min(10, positive(env.FACE_INDEX_FPS, 2)),
    detectInputSize: Math.round(Math.min(3840, positive(env.FACE_DETECT_SIZE, 1920)) / 32) * 32,
    retentionDays: positive(env.FACE_INDEX_RETENTION_DAYS, 90),
    requestWindowDays: positive(env.FACE_REQUEST_WINDOW_DAYS, 30),
    dataKey: loadFaceDataKey(env, dataDir),
    footageMaxBytes: Math.round(positive(env.FOOTAGE_MAX_GB, 20) * 1024 ** 3),
    workers: Math.round(positive(env.FACE_WORKERS, Math.min(2, os.availableParallelism()))),
    fullLookEvery: Math.round(Math.min(10, positive(env.FACE_FULL_LOOK_EVERY, 3))),
    personRows: wholeInRange(env.PERSON_DETECT_ROWS, 0, 4, 2),
  };
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const env = process.env;
  const port = overrides.port ?? Number(env.PORT ?? 3000);
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    baseUrl: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    smtpUrl: env.SMTP_URL || null,
    authSecret: overrides.authSecret ?? loadSecret(dataDir),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    webDir: path.join(projectRoot, 'dist', 'web'),
    heroDir: path.resolve(env.HERO_DIR ?? 'media/hero'),
    rateLimitScale: Number(env.RATE_LIMIT_SCALE ?? 1) || 1,
    logMailLinks: env.LOG_MAIL_LINKS !== '0',
    mailRetryDelaySeconds: 5,
    mailRetryDelayMaxSeconds: 5 * 60,
    runWorker: env.RUN_WORKER !== '0',
    jobHeartbeatSeconds: Math.max(1, Number(env.JOB_HEARTBEAT_SECONDS ?? 10) || 10),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    sessionCacheSeconds: Math.min(60, Math.max(0, Number(env.SESSION_CACHE_SECONDS ?? 5) || 0)),
    s3: loadS3(env),
    payments: overrides.payments ?? loadPayments(env),
    faces: loadFaceSettings(env, dataDir),
    uploads: loadUploadSettings(env),
    unconfirmedAccountDays: Number(env.UNCONFIRMED_ACCOUNT_DAYS) > 0 ? Number(env.UNCONFIRMED_ACCOUNT_DAYS) : 7,
    footageRetentionDays: Number(env.FOOTAGE_RETENTION_DAYS) > 0 ? Number(env.FOOTAGE_RETENTION_DAYS) : 90,
    team: {
      email: env.TEAM_EMAIL?.trim() || COMPANY.teamInbox,
      mailsPerDay: wholeInRange(env.TEAM_MAILS_PER_DAY, 0, 1000, 10),
      summaryHourUtc: wholeInRange(env.TEAM_SUMMARY_HOUR, 0, 23, 13),
    },
    ...overrides,
  };
}
