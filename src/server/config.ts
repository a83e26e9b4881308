// Configuration, read once from the environment. Every variable is listed in the README.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** The public address of the site, used in links inside e-mails and for origin checks. */
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  authSecret: string;
  /** Trust X-Forwarded-For for the client address (only behind a proxy you control). */
  trustProxy: boolean;
  /** Folder whose desktop.mp4 / mobile.mp4 replace the built-in hero videos. */
  heroDir: string;
  /** Multiply every rate limit by this (tests use small windows; never 0). */
  rateLimitScale: number;
  logMailLinks: boolean;
  /** S3-compatible storage; null keeps files on local disk under dataDir/storage. */
  s3: S3Config | null;
}

export interface S3Config {
  endpoint: string | null;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Path-style addressing (most self-hosted S3 servers need it). */
  forcePathStyle: boolean;
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
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    heroDir: path.resolve(env.HERO_DIR ?? 'media/hero'),
    rateLimitScale: Number(env.RATE_LIMIT_SCALE ?? 1) || 1,
    logMailLinks: env.LOG_MAIL_LINKS !== '0',
    s3: loadS3(env),
    ...overrides,
  };
}
