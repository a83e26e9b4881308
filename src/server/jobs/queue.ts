// The durable job queue: pg-boss on the product's own database (PGlite or PostgreSQL), so a job
// is stored in the same place as everything else and survives any process. See
// docs/decisions/0007. On top of pg-boss:
//  - payloads are checked against their declaration (definitions.ts) when sent and when run;
//  - running jobs keep a lease with a heartbeat (job_leases), and a supervisor hands the job of a
//    worker that stopped beating (killed, crashed, machine gone) back to the queue at once, rather
//    than after the job's whole time limit;
//  - a job sent by this process wakes this process's worker at once, instead of at its next poll;
//  - a growing pause between retries can have a ceiling (retryDelayMax), and a retried job that
//    succeeds can bring its held fellows forward (releaseHeldOnSuccess): definitions.ts.
import { createHash, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client';
import { isDatabaseUnavailable } from '../db/errors';
import type { Logger } from 'pino';
import { logger } from '../observability/logger';
import { jobDuration, jobFailures } from '../observability/metrics';
import { JOB_NAMES, JOB_TYPES, type JobPayload, type JobType, type QueueSettings } from './definitions';

export interface JobContext {
  jobId: string;
  /** 0 on the first run, then the number of retries so far. */
  retryCount: number;
  /** True when a failure now is final (no retry follows). */
  lastAttempt: boolean;
  /** Renews the job's lease now (the queue also does so every few seconds while it runs). */
  heartbeat(): Promise<void>;
}

/**
 * A failure that running the job again cannot change (e.g. a damaged file): the job fails at
 * once, without the retries a passing fault gets, and shows in the admins' failed jobs.
 */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** What a handler did: the work, or nothing because it was already done (a re-run). */
export type JobOutcome = 'done' | 'skipped';
export type JobHandler<T extends JobType> = (payload: JobPayload<T>, ctx: JobContext) => Promise<JobOutcome>;
export type JobHandlers = { [T in JobType]: JobHandler<T> };

export interface FailedJob {
  id: string;
  name: string;
  error: string;
  retryCount: number;
  createdOn: string;
  failedOn: string | null;
}

export interface JobQueueOptions {
  /** Overrides of queue settings per job type (tests use short retry pauses). */
  queues?: Partial<Record<JobType, QueueSettings>>;
  /** How often an idle worker looks for new jobs (jobs sent by this process start at once). */
  pollingIntervalSeconds?: number;
  /** A running job beats this often; one that has not beaten for three times as long is taken back. */
  heartbeatSeconds?: number;
}

const SCHEMA = 'pgboss';
/** How long a finished job waits for the database to record it (longer than any restart). */
const COMPLETE_RETRY_MS = 5 * 60_000;
/** After the database (re)starts, how long beyond the stale time its workers have to reconnect and beat. */
const RESTART_GRACE_SECONDS = 10;

/**
 * A job id made from a name, the same every time (a UUID, as pg-boss wants): sending twice with
 * it stores the job once, e.g. the receipt of one order.
 */
export function jobIdFor(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * pg-boss on a PGlite instance that the app's Drizzle also uses. Statements with parameters go
 * through `query`; pg-boss's parameterless multi-statement scripts run in a PGlite transaction,
 * so an expected error inside one (pg-boss relies on some) is rolled back whole and the single
 * connection stays usable.
 */
function pgliteAdapter(pglite: NonNullable<Database['pglite']>): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values?.length) return pglite.query(text, values) as Promise<{ rows: unknown[] }>;
      const results = await pglite.transaction((tx) => tx.exec(text));
      return (results.at(-1) ?? { rows: [] }) as { rows: unknown[] };
    },
  };
}

export class JobQueue {
  readonly workerId = randomUUID();
  private readonly boss: PgBoss;
  private readonly workers = new Map<JobType, string>();
  private readonly running = new Map<string, JobType>();
  private timers: NodeJS.Timeout[] = [];
  private started = false;
  private readonly heartbeatSeconds: number;

  constructor(
    private readonly database: Database,
    private readonly opts: JobQueueOptions = {},
  ) {
    this.heartbeatSeconds = opts.heartbeatSeconds ?? 10;
    const common = {
      schema: SCHEMA,
      // Completed jobs (a mail's body among them) leave the live table after an hour and the
      // archive after a week.
      archiveCompletedAfterSeconds: 60 * 60,
      deleteAfterDays: 7,
      maintenanceIntervalSeconds: 60,
    };
    this.boss = database.pglite
      ? new PgBoss({ ...common, db: pgliteAdapter(database.pglite) })
      : new PgBoss({ ...common, connectionString: database.url!, max: 4, application_name: 'job queue' });
    this.boss.on('error', (error) => logger.error({ err: (error as Error).message }, 'job queue error'));
  }

  /** Creates the queue's tables and the queues (safe to run from every process, any number of times). */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    for (const name of JOB_NAMES) {
      const { retryDelayMax: _max, releaseHeldOnSuccess: _release, ...stored } = this.settings(name);
      const options: PgBoss.Queue = { ...stored, name };
      if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
      else await this.boss.createQueue(name, options);
    }
    this.started = true;
  }

  /**
   * Stores a job; it runs once any worker takes it. Returns the job's id. With `options.id` the
   * send is idempotent: a job with that id already waiting or running is not stored twice.
   */
  async send<T extends JobType>(type: T, payload: JobPayload<T>, options: PgBoss.SendOptions = {}): Promise<string> {
    const data = JOB_TYPES[type].payload.parse(payload) as object;
    const id = (await this.boss.send(type, data, options)) ?? options.id;
    if (!id) throw new Error(`[jobs] ${type} was not stored`);
    const worker = this.workers.get(type);
    if (worker) this.boss.notifyWorker(worker);
    return id;
  }

  /**
   * Starts working every job type. Refuses unless there is exactly one handler for each declared
   * type: a job nobody can run would wait forever, a handler for an unknown type never runs.
   */
  async work(handlers: JobHandlers): Promise<void> {
    const given = Object.keys(handlers);
    const missing = JOB_NAMES.filter((n) => typeof handlers[n] !== 'function');
    const unknown = given.filter((n) => !(JOB_NAMES as string[]).includes(n));
    if (missing.length || unknown.length) {
      throw new Error(`[jobs] the worker needs one handler per job type (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`);
    }
    await this.start();
    await this.takeBackOrphans(true);
    for (const name of JOB_NAMES) {
      const id = await this.boss.work(
        name,
        { batchSize: 1, pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 2, includeMetadata: true },
        async ([job]) => this.run(name, job as PgBoss.JobWithMetadata<object>, handlers[name] as JobHandler<typeof name>),
      );
      this.workers.set(name, id);
    }
    const beat = setInterval(() => void this.beat(), this.heartbeatSeconds * 1000);
    const supervise = setInterval(() => void this.takeBackOrphans(false), this.heartbeatSeconds * 3000);
    beat.unref();
    supervise.unref();
    this.timers.push(beat, supervise);
  }

  private async run<T extends JobType>(name: T, job: PgBoss.JobWithMetadata<object>, handler: JobHandler<T>): Promise<{ outcome: JobOutcome }> {
    const payload = JOB_TYPES[name].payload.parse(job.data) as JobPayload<T>;
    await this.lease(job.id, name);
    this.running.set(job.id, name);
    const started = performance.now();
    const log = logger.child({ jobId: job.id, job: name, run: job.retryCount + 1 });
    log.info('job started');
    try {
      const outcome = await handler(payload, {
        jobId: job.id,
        retryCount: job.retryCount,
        lastAttempt: job.retryCount >= job.retryLimit,
        // A job that has ended (a late progress report of a stretch) must not leave a lease behind:
        // the supervisor would take the ended job for an orphan and run it again.
        heartbeat: () => (this.running.has(job.id) ? this.lease(job.id, name) : Promise.resolve()),
      });
      const seconds = (performance.now() - started) / 1000;
      // Done is recorded here, waiting out a database outage: pg-boss's own completion after this
      // returns is not awaited (a rejection would end the process) and, lost, would run the job
      // again once it expired (a second mail).
      await this.completeWhenReachable(name, job.id, outcome, log);
      jobDuration.observe({ kind: name, outcome }, seconds);
      log.info({ outcome, s: Math.round(seconds * 10) / 10 }, 'job finished');
      if (job.retryCount > 0 && this.settings(name).releaseHeldOnSuccess) await this.releaseHeld(name, log);
      return { outcome };
    } catch (error) {
      const permanent = error instanceof PermanentJobError;
      jobDuration.observe({ kind: name, outcome: 'failed' }, (performance.now() - started) / 1000);
      jobFailures.inc({ kind: name });
      log.error({ err: (error as Error).message, permanent }, 'job failed');
      // pg-boss retries while retry_count < retry_limit: this job has had its last try.
      if (permanent) await this.database.db.execute(sql`UPDATE pgboss.job SET retry_limit = retry_count WHERE name = ${name} AND id = ${job.id}`);
      else await this.capRetryDelay(name, job);
      throw error;
    } finally {
      this.running.delete(job.id);
      await this.database.db.execute(sql`DELETE FROM job_leases WHERE job_id = ${job.id}`).catch(() => {});
      // There may be more waiting: look again at once rather than after the polling pause.
      const worker = this.workers.get(name);
      if (worker) this.boss.notifyWorker(worker);
    }
  }

  private settings(name: JobType): QueueSettings {
    return { ...JOB_TYPES[name].queue, ...this.opts.queues?.[name] };
  }

  /**
   * pg-boss pauses retryDelay · 2^(n-1) · (1 + random) before the n-th retry, without a ceiling.
   * Once that could pass the type's retryDelayMax, the job's pause is fixed instead, at a point
   * drawn between half the ceiling and the ceiling, so jobs held together do not all come back in
   * the same second. Runs before pg-boss records the failure, which then reads the job's new pause.
   */
  private async capRetryDelay(name: JobType, job: PgBoss.JobWithMetadata<object>): Promise<void> {
    const max = this.settings(name).retryDelayMax;
    if (!max || !job.retryBackoff || job.retryDelay * 2 ** Math.min(16, job.retryCount + 1) <= max) return;
    const pause = Math.ceil(max / 2 + (Math.random() * max) / 2);
    await this.database.db
      .execute(sql`UPDATE pgboss.job SET retry_backoff = false, retry_delay = ${pause} WHERE name = ${name} AND id = ${job.id}`)
      .catch((error: Error) => logger.warn({ jobId: job.id, err: error.message }, 'the pause before the retry could not be capped'));
  }

  /** A retry went through: the jobs of this type waiting for theirs run now. */
  private async releaseHeld(name: JobType, log: Logger): Promise<void> {
    try {
      const released = await queryRows<{ id: string }>(
        this.database.db,
        sql`UPDATE pgboss.job SET start_after = now() WHERE name = ${name} AND state = 'retry' AND start_after > now() RETURNING id`,
      );
      if (released.length) log.info({ released: released.length }, 'held jobs brought forward');
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'held jobs could not be brought forward');
    }
  }

  /**
   * Marks the job completed, retrying every second while the database is out of reach (a restart
   * takes seconds), the lease renewed first so no supervisor takes the finished job back meanwhile.
   * pg-boss then completes it again, which changes nothing.
   */
  private async completeWhenReachable(name: JobType, jobId: string, outcome: JobOutcome, log: Logger): Promise<void> {
    const deadline = Date.now() + COMPLETE_RETRY_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.lease(jobId, name);
        await this.boss.complete(name, jobId, { outcome });
        if (attempt) log.warn({ attempts: attempt + 1 }, 'job completion recorded after the database came back');
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async lease(jobId: string, name: JobType): Promise<void> {
    await this.database.db.execute(sql`
      INSERT INTO job_leases (job_id, job_name, worker_id, heartbeat_at) VALUES (${jobId}, ${name}, ${this.workerId}, now())
      ON CONFLICT (job_id) DO UPDATE SET worker_id = ${this.workerId}, heartbeat_at = now()`);
  }

  private async beat(): Promise<void> {
    for (const [id, name] of this.running) await this.lease(id, name).catch(() => {});
  }

  /**
   * Hands back to the queue the jobs whose worker has stopped beating. On PGlite this process is
   * the only possible worker, so at start every lease of another worker is an orphan.
   *
   * While the database is down nobody can beat, so right after it restarts every lease looks
   * stale, those of jobs still running or finished and waiting to be recorded (a mail already
   * sent) among them: taken back, they would run twice. A lease is therefore stale only once
   * its worker has had the database for the whole stale time, plus RESTART_GRACE_SECONDS to
   * reconnect, without beating.
   */
  private async takeBackOrphans(atStart: boolean): Promise<void> {
    try {
      const everyOtherAtStart = atStart && this.database.kind === 'pglite';
      const staleAfter = `${this.heartbeatSeconds * 3} seconds`;
      const stale = await queryRows<{ job_id: string; job_name: JobType }>(
        this.database.db,
        everyOtherAtStart
          ? sql`SELECT job_id, job_name FROM job_leases WHERE worker_id <> ${this.workerId}`
          : sql`SELECT job_id, job_name FROM job_leases
                WHERE heartbeat_at < now() - ${staleAfter}::interval
                  AND pg_postmaster_start_time() < now() - ${staleAfter}::interval - ${`${RESTART_GRACE_SECONDS} seconds`}::interval`,
      );
      for (const lease of stale) {
        logger.warn({ jobId: lease.job_id, job: lease.job_name }, 'the worker running this job stopped; running it again');
        await this.boss.fail(lease.job_name, lease.job_id, { message: 'The worker running this job stopped.' });
        await this.database.db.execute(sql`DELETE FROM job_leases WHERE job_id = ${lease.job_id}`);
      }
    } catch (error) {
      logger.error({ err: (error as Error).message }, 'job supervisor failed');
    }
  }

  /** Failed jobs, newest first, with their last error: what the admins see. */
  async failed(limit = 50): Promise<FailedJob[]> {
    const rows = await queryRows<{
      id: string;
      name: string;
      output: { message?: string } | null;
      retry_count: number;
      created_on: Date;
      completed_on: Date | null;
    }>(
      this.database.db,
      sql`SELECT id, name, output, retry_count, created_on, completed_on FROM pgboss.job
          WHERE state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT ${limit}`,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      error: r.output?.message ?? 'Unknown error',
      retryCount: r.retry_count,
      createdOn: new Date(r.created_on).toISOString(),
      failedOn: r.completed_on ? new Date(r.completed_on).toISOString() : null,
    }));
  }

  /**
   * Brings forward the jobs of this type waiting for their turn (created or waiting to retry) whose
   * payload has these fields; returns how many. A job already running is left alone.
   */
  async runWaitingNow(name: JobType, match: Record<string, string>): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.database.db,
      sql`UPDATE pgboss.job SET start_after = now() WHERE name = ${name} AND state IN ('created', 'retry') AND data @> ${JSON.stringify(match)}::jsonb RETURNING id`,
    );
    const worker = this.workers.get(name);
    if (rows.length && worker) this.boss.notifyWorker(worker);
    return rows.length;
  }

  /** Runs a failed job again. */
  async retry(name: JobType, id: string): Promise<void> {
    await this.boss.retry(name, id);
  }

  /** The state of one job (tests and the admins' job list). */
  async state(name: JobType, id: string): Promise<{ state: string; retryCount: number; output: unknown } | null> {
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    return job ? { state: job.state, retryCount: job.retryCount, output: (job as { output?: unknown }).output ?? null } : null;
  }

  /** Stops taking jobs, lets running ones finish (up to `timeoutMs`), and stops the queue. */
  async stop(timeoutMs = 30_000): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (!this.started) return;
    await new Promise<void>((resolve) => {
      this.boss.once('stopped', () => resolve());
      void this.boss.stop({ graceful: true, wait: false, timeout: timeoutMs, close: true });
    });
    this.started = false;
  }
}
