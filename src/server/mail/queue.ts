// The stored mail queue: `send` writes a row and returns at once, so no request waits on (or
// reveals anything through the timing of) an SMTP server. A dispatcher in every server process
// claims due rows with FOR UPDATE SKIP LOCKED (several instances never send one mail twice
// while it is claimed), delivers them, and retries failures with a growing pause. A process that
// dies while sending leaves a claim that expires, and the mail is tried again.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { mailQueue } from '../db/schema';
import type { MailMessage, Mailer, MailTransport } from './mailer';

export interface MailQueueOptions {
  /** How often rows due for a retry, or queued by another instance, are looked for. */
  pollMs?: number;
  /** The pause after the first failure; it doubles with each further one, up to an hour. */
  retryBaseMs?: number;
  maxAttempts?: number;
}

const CLAIM_SECONDS = 120;
const BATCH = 10;
const MAX_PAUSE_MS = 60 * 60 * 1000;

export class MailQueue implements Mailer {
  private readonly pollMs: number;
  private readonly retryBaseMs: number;
  private readonly maxAttempts: number;
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    opts: MailQueueOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 5_000;
    this.retryBaseMs = opts.retryBaseMs ?? 5_000;
    this.maxAttempts = opts.maxAttempts ?? 12;
  }

  get kind() {
    return this.transport.kind;
  }

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(mailQueue).values({
      toAddress: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
      replyTo: message.replyTo ?? null,
    });
    this.kick();
  }

  /** Starts the dispatcher: a first pass now (mail left by a previous run), then one every pollMs. */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Runs a delivery pass now, or once more after the one under way. */
  kick(): void {
    if (this.closed) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: Error) => console.error('[mail] delivery pass failed:', error.message))
      .finally(() => {
        this.draining = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits until nothing is being delivered (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const rows = await this.claim();
      for (const row of rows) await this.deliver(row);
      if (rows.length < BATCH) return;
    }
  }

  private async claim() {
    return queryRows<{
      id: string;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string | null;
      reply_to: string | null;
      attempts: number;
    }>(
      this.db,
      sql`
      UPDATE ${mailQueue}
      SET attempts = attempts + 1, claimed_until = now() + ${`${CLAIM_SECONDS} seconds`}::interval
      WHERE id IN (
        SELECT id FROM ${mailQueue}
        WHERE status = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY next_attempt_at
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, to_address, subject, text_body, html_body, reply_to, attempts`,
    );
  }

  private async deliver(row: Awaited<ReturnType<MailQueue['claim']>>[number]): Promise<void> {
    try {
      await this.transport.deliver({
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body ? { html: row.html_body } : {}),
        ...(row.reply_to ? { replyTo: row.reply_to } : {}),
      });
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      const gaveUp = row.attempts >= this.maxAttempts;
      const pauseMs = Math.min(MAX_PAUSE_MS, this.retryBaseMs * 2 ** (row.attempts - 1));
      console.error(`[mail] "${row.subject}" not delivered (attempt ${row.attempts}${gaveUp ? ', giving up' : ''}): ${message}`);
      await this.db.execute(sql`
        UPDATE ${mailQueue}
        SET status = ${gaveUp ? 'failed' : 'pending'}, last_error = ${message}, claimed_until = NULL,
            next_attempt_at = now() + ${`${pauseMs} milliseconds`}::interval
        WHERE id = ${row.id}`);
      return;
    }
    // Once sent, the body (which may hold a one-time link) is not kept; who and what stay for the record.
    await this.db.execute(sql`
      UPDATE ${mailQueue}
      SET status = 'sent', sent_at = now(), claimed_until = NULL, last_error = NULL, text_body = '', html_body = NULL
      WHERE id = ${row.id}`);
  }
}
