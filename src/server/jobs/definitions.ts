// Every kind of background job, declared once: its payload (checked when it is sent and again
// when it is run) and how the queue treats it. The worker refuses to start unless each has
// exactly one handler (worker.ts).
import type PgBoss from 'pg-boss';
import { z } from 'zod';

/** How long a job may run before the queue gives up on it (heartbeats catch a dead worker far sooner). */
const HOUR = 60 * 60;

export const JOB_TYPES = {
  /**
   * One e-mail, delivered through the transport. While the mail server is away it is retried for
   * about a day: after 5 s, the pause doubling up to 2.5–5 minutes (about 390 tries). The first
   * retried mail that goes through brings every held one forward, so after an outage the mail
   * goes out within seconds, not at each one's next turn.
   */
  'mail.deliver': {
    payload: z.object({
      to: z.string().min(3).max(320),
      subject: z.string().max(500),
      text: z.string(),
      html: z.string().optional(),
      replyTo: z.string().max(320).optional(),
    }),
    queue: { retryLimit: 390, retryDelay: 5, retryBackoff: true, retryDelayMax: 5 * 60, releaseHeldOnSuccess: true, expireInSeconds: 5 * 60 },
  },
  /** An uploaded video: probed, stripped of metadata, made web-playable, given a thumbnail. */
  'media.process-video': {
    payload: z.object({ videoId: z.string().uuid(), uploadKey: z.string().min(1).max(500) }),
    queue: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 6 * HOUR },
  },
  /**
   * The built-in test checkout tells our webhook how a session ended, signed, as a provider
   * would; retried like a provider's webhook until our server takes it.
   */
  'payments.local-deliver-event': {
    payload: z.object({ sessionId: z.string().min(1).max(200) }),
    queue: { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 5 * 60 },
  },
  /** The built-in test checkout tells our webhook a refund went through, as it does a payment. */
  'payments.local-deliver-refund': {
    payload: z.object({ refundId: z.string().min(1).max(200) }),
    queue: { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 5 * 60 },
  },
  /** The built-in test checkout closes a session nobody paid, 24 hours after it opened. */
  'payments.local-expire': {
    payload: z.object({ sessionId: z.string().min(1).max(200) }),
    queue: { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 5 * 60 },
  },
  /** A footage file becomes its face index (faces/indexing.ts). */
  'faces.index-footage': {
    payload: z.object({ footageId: z.string().uuid() }),
    queue: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 12 * HOUR },
  },
  /** A game's cameras put on one clock by their sound (footage/sync.ts); a re-run gives the same offsets. */
  'footage.sync-game': {
    payload: z.object({ gameId: z.string().min(1).max(200) }),
    queue: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: HOUR },
  },
  /** An approved request's athlete is looked for in its indexed footage (faces/matching.ts). */
  'faces.match-request': {
    payload: z.object({ requestId: z.string().uuid() }),
    queue: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 10 * 60 },
  },
  /** A closer look for the athlete's face in a clip added by hand, when the index had none there (faces/clip-search.ts). */
  'faces.find-in-clip': {
    payload: z.object({ appearanceId: z.string().uuid() }),
    queue: { retryLimit: 4, retryDelay: 10, retryBackoff: true, expireInSeconds: HOUR },
  },
  /** A request's highlight reel, social cut and stills, rendered from its accepted clips (reels/render-job.ts). */
  'reels.render': {
    payload: z.object({ renderId: z.string().uuid() }),
    // Pauses of 15 s doubling to 4 minutes: a storage outage of several minutes (the trust suite
    // stops S3 for one) is waited out rather than failing the render for good.
    queue: { retryLimit: 5, retryDelay: 15, retryBackoff: true, expireInSeconds: 3 * HOUR },
  },
} as const satisfies Record<string, { payload: z.ZodType; queue: QueueSettings }>;

/**
 * How the queue treats a job type: pg-boss's settings, and two of the product's own (queue.ts),
 * which pg-boss does not store.
 */
export interface QueueSettings extends Omit<PgBoss.Queue, 'name'> {
  /** With retryBackoff, the longest pause before a retry, in seconds: pg-boss doubles it without a ceiling. */
  retryDelayMax?: number;
  /**
   * A retried job that succeeds brings forward the jobs of its type waiting for a retry: what
   * they waited for (the mail server) is back.
   */
  releaseHeldOnSuccess?: boolean;
}

export type JobType = keyof typeof JOB_TYPES;
export type JobPayload<T extends JobType> = z.output<(typeof JOB_TYPES)[T]['payload']>;
export const JOB_NAMES = Object.keys(JOB_TYPES) as JobType[];
