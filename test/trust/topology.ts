// The production topology on this machine, each part a real process: a PostgreSQL cluster of the
// suite's own (never the machine's shared server), s3rver on loopback, an SMTP server on loopback
// (in this process, so it can be stopped, slowed and read), two API instances with RUN_WORKER=0
// and two `npm run worker` processes. The API instances share one DATA_DIR, which is what a
// resumable upload continued through the other instance needs (README, "Running at scale").
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { seedDemoEvents } from '../../src/server/events/demo';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { loadConfig } from '../../src/server/config';
import type { AppDeps } from '../../src/server/deps';
import { buildDeps } from '../../src/server/server';
import { freePort } from '../support/ports';

const run = promisify(execFile);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Everything started is stopped here, also when the runner is interrupted. */
const cleanups: Array<() => Promise<void> | void> = [];
export async function cleanUpAll(): Promise<void> {
  while (cleanups.length) {
    const step = cleanups.pop()!;
    await Promise.resolve()
      .then(step)
      .catch((e: Error) => console.error('[trust] clean-up:', e.message));
  }
}

// ---- PostgreSQL --------------------------------------------------------------------------------

export interface PgServer {
  url: string;
  /** The suite's own cluster (restartable); false: a database on the shared server (not restartable). */
  ownCluster: boolean;
  /** Why the cluster could not be made, when ownCluster is false. */
  why?: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

function pgBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

async function startOwnCluster(): Promise<PgServer> {
  const bin = pgBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']).catch(() => ({ stdout: '' }));
    if (!stdout.trim() || !fs.existsSync('/usr/sbin/runuser')) throw new Error('no postgres user or runuser to run the cluster as');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-trust-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) await run('chown', ['postgres', dir]);
  const pgCmd = (cmd: string, args: string[]) => (asRoot ? run('/usr/sbin/runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : run(path.join(bin, cmd), args));
  await pgCmd('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c shared_buffers=64MB`;
  let running = false;
  const start = async () => {
    if (running) return;
    running = true;
    await pgCmd('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    running = false;
    await pgCmd('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  cleanups.push(async () => {
    await stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE trust');
  await admin.end();
  return { url: `postgres://postgres@127.0.0.1:${port}/trust`, ownCluster: true, stop, start };
}

async function sharedServerDatabase(why: string): Promise<PgServer> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `trust_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const refuse = async () => {
    throw new Error('the shared PostgreSQL server is never stopped by the suite');
  };
  return { url: url.toString(), ownCluster: false, why, stop: refuse, start: refuse };
}

// ---- S3 (s3rver), stoppable and startable on the same port and folder ---------------------------

const S3_CHILD = `
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({ address: '127.0.0.1', port: Number(process.env.S3RVER_PORT), directory: process.env.S3RVER_DIR, silent: true, configureBuckets: [{ name: 'trust' }] });
server.run().then(() => process.stdout.write('ready\\n'), (err) => { console.error(err); process.exit(1); });
process.stdin.on('end', () => server.close().finally(() => process.exit(0)));
process.stdin.resume();
`;

export interface S3Server {
  endpoint: string;
  directory: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

async function startS3(): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-trust-s3-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    // --openssl-legacy-provider: s3rver's listing tokens use single DES (see test/support/s3.ts).
    const c = spawn(process.execPath, ['--openssl-legacy-provider', '-e', S3_CHILD], {
      env: { ...process.env, NODE_OPTIONS: '', S3RVER_MODULE: createRequire(import.meta.url).resolve('s3rver'), S3RVER_PORT: String(port), S3RVER_DIR: directory },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = c;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${err}`)), 15_000);
      c.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      c.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited with ${code}: ${err}`));
      });
    });
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  cleanups.push(async () => {
    await stop();
    fs.rmSync(directory, { recursive: true, force: true });
  });
  await start();
  return { endpoint: `http://127.0.0.1:${port}`, directory, stop, start };
}

// ---- SMTP ---------------------------------------------------------------------------------------

export interface Mail {
  to: string[];
  subject: string;
  messageId: string;
  text: string;
}

export interface SmtpServer {
  url: string;
  /** Mails accepted (answered 250): a message whose client went away before the answer is not one. */
  mails: Mail[];
  /** Holds each message this long before answering (a slow provider: a worker can be killed mid-delivery). */
  holdMs: number;
  /** Messages received and not yet answered. */
  inFlight: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  count(subject: string): number;
}

async function startSmtp(): Promise<SmtpServer> {
  const port = await freePort();
  const closedSessions = new Set<string>();
  let server: SMTPServer | null = null;
  const smtp: SmtpServer = {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    mails: [],
    holdMs: 0,
    inFlight: 0,
    async start() {
      if (server) return;
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onClose(session) {
          closedSessions.add(session.id);
        },
        onData(stream, session, callback) {
          smtp.inFlight += 1;
          simpleParser(stream)
            .then(async (parsed) => {
              if (smtp.holdMs) await sleep(smtp.holdMs);
              // The sender is gone: it never heard "accepted", so the mail is not delivered.
              if (closedSessions.has(session.id)) return callback(new Error('client gone'));
              const to = ([] as Array<{ value: Array<{ address?: string }> }>).concat((parsed.to as never) ?? []).flatMap((a) => a.value.map((x) => x.address ?? ''));
              smtp.mails.push({ to, subject: parsed.subject ?? '', messageId: parsed.messageId ?? '', text: parsed.text ?? '' });
              callback();
            })
            .catch(callback)
            .finally(() => (smtp.inFlight -= 1));
        },
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      // Connections are cut too: a provider that is down answers nothing.
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        for (const conn of (s as unknown as { connections: Set<{ close(): void }> }).connections ?? []) conn.close();
      });
    },
    count: (subject) => smtp.mails.filter((m) => m.subject === subject).length,
  };
  await smtp.start();
  cleanups.push(() => smtp.stop());
  return smtp;
}

// ---- the product's processes --------------------------------------------------------------------

export interface LogLine {
  msg?: string;
  level?: number;
  jobId?: string;
  job?: string;
  route?: string;
  status?: number;
  [key: string]: unknown;
}

export interface ProductProcess {
  name: string;
  url: string | null;
  pid(): number | undefined;
  /** Every JSON log line since the process (first) started; raw text lines as { msg }. */
  logs: LogLine[];
  alive(): boolean;
  start(): Promise<void>;
  /** SIGKILL, as a crash or a pulled plug would. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

function productProcess(name: string, entry: string, env: Record<string, string>, port: number | null): ProductProcess {
  let child: ChildProcess | null = null;
  const logs: LogLine[] = [];
  const url = port ? `http://127.0.0.1:${port}` : null;
  const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;
  const proc: ProductProcess = {
    name,
    url,
    logs,
    pid: () => child?.pid,
    alive: () => Boolean(child && !exited(child)),
    async start() {
      const c = spawn(process.execPath, ['--import', 'tsx', entry], {
        cwd: ROOT,
        env: { ...process.env, ...env, ...(port ? { PORT: String(port) } : {}) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = c;
      let partial = '';
      const take = (d: Buffer) => {
        partial += d.toString();
        const lines = partial.split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          if (!line.trim()) continue;
          try {
            logs.push({ ...(JSON.parse(line) as LogLine), proc: name });
          } catch {
            logs.push({ msg: line, proc: name });
          }
        }
      };
      c.stdout!.on('data', take);
      c.stderr!.on('data', take);
      const deadline = Date.now() + 90_000;
      for (;;) {
        if (exited(c)) throw new Error(`${name} exited early:\n${logs.slice(-20).map((l) => JSON.stringify(l)).join('\n')}`);
        const ready = url ? await fetch(`${url}/api/health`).then((r) => r.ok).catch(() => false) : logs.some((l) => l.msg === 'Get It On Tape worker is taking jobs' && l.pid === c.pid);
        if (ready) return;
        if (Date.now() > deadline) throw new Error(`${name} did not start in 90 s`);
        await sleep(200);
      }
    },
    async kill() {
      const c = child;
      if (!c || exited(c)) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    },
    async stop() {
      const c = child;
      if (!c || exited(c)) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
  cleanups.push(() => proc.kill());
  return proc;
}

// ---- the whole topology -------------------------------------------------------------------------

export interface Topology {
  pg: PgServer;
  s3: S3Server;
  smtp: SmtpServer;
  apis: [ProductProcess, ProductProcess];
  workers: [ProductProcess, ProductProcess];
  /** The site's address (BASE_URL): the Origin a browser on our pages sends. */
  origin: string;
  /** The DATA_DIR both API instances and both workers share. */
  dataDir: string;
  env: Record<string, string>;
  metricsToken: string;
  /** The product's own modules on the suite's database and storage, for seeding and counting. */
  deps: AppDeps;
  /** The API instance for the n-th request: requests alternate between the two. */
  api(n?: number): string;
}

let turn = 0;

export async function startTopology(log: (line: string) => void): Promise<Topology> {
  const pgServer = await startOwnCluster().catch((error: Error) => {
    log(`own PostgreSQL cluster unavailable (${error.message}); using a database on the shared server`);
    return sharedServerDatabase(error.message);
  });
  const [s3, smtp] = await Promise.all([startS3(), startSmtp()]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-trust-data-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const [port0, port1] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${port0}`;
  const metricsToken = randomBytes(16).toString('hex');
  const env: Record<string, string> = {
    DATABASE_URL: pgServer.url,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    FACE_DATA_KEY: randomBytes(32).toString('base64'),
    S3_BUCKET: 'trust',
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_REGION: 'us-east-1',
    SMTP_URL: smtp.url,
    METRICS_TOKEN: metricsToken,
    DATA_DIR: dataDir,
    BASE_URL: origin,
    HOST: '127.0.0.1',
    RUN_WORKER: '0',
    // A dead worker's job is taken back after 3 s rather than 30 s.
    JOB_HEARTBEAT_SECONDS: '1',
    // Every family of the load scenario comes from 127.0.0.1: the per-address limits would be
    // the only thing measured.
    RATE_LIMIT_SCALE: '100000',
    FACE_WORKERS: '1',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    LOG_MAIL_LINKS: '0',
    NODE_ENV: 'production',
    PAYMENTS: 'local',
    NODE_OPTIONS: '',
  };
  // The suite's own view of the product (same database, storage and secrets): seeding and counting.
  for (const [k, v] of Object.entries(env)) process.env[k] = v;
  process.env.LOG_LEVEL = 'warn';
  const config = loadConfig({ runWorker: false });
  const deps = await buildDeps(config);
  await seedDemoEvents(deps.db);
  cleanups.push(async () => {
    await deps.jobs.stop(1000).catch(() => {});
    await deps.faces.close().catch(() => {});
    await deps.bus.close().catch(() => {});
    await deps.database.close().catch(() => {});
  });
  const apis: [ProductProcess, ProductProcess] = [
    productProcess('api-1', 'src/server/main.ts', env, port0),
    productProcess('api-2', 'src/server/main.ts', env, port1),
  ];
  const workers: [ProductProcess, ProductProcess] = [
    productProcess('worker-1', 'src/server/worker.ts', env, null),
    productProcess('worker-2', 'src/server/worker.ts', env, null),
  ];
  await Promise.all([...apis, ...workers].map((p) => p.start()));
  log(`topology: PostgreSQL ${pgServer.ownCluster ? 'own cluster' : 'shared server'}, s3rver ${s3.endpoint}, SMTP ${smtp.url}, APIs ${apis.map((a) => a.url).join(' ')}, 2 workers`);
  return {
    pg: pgServer,
    s3,
    smtp,
    apis,
    workers,
    origin,
    dataDir,
    env,
    metricsToken,
    deps,
    api: (n?: number) => apis[(n ?? turn++) % 2]!.url!,
  };
}

/** Brings every part back (after a scenario killed one): each dead process is started again. */
export async function heal(t: Topology): Promise<void> {
  await Promise.all([...t.apis, ...t.workers].filter((p) => !p.alive()).map((p) => p.start()));
}

export { sleep };
