// Outgoing mail. Code that sends mail calls `Mailer.send`, which stores the message as a durable
// job and returns; a worker delivers it through the transport, retrying failures with a growing
// pause (the 'mail.deliver' job, mail/jobs.ts); a message the server refuses for good fails at
// once. SMTP_URL picks the SMTP transport; without it every message is written to the outbox
// folder (data/mail/*.eml) and its links are printed, so a person trying the product locally can
// still verify an address or reset a password.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { COMPANY } from '../../common/company';
import { PermanentJobError, type JobQueue } from '../jobs/queue';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface Mailer {
  readonly kind: MailTransport['kind'];
  /**
   * Stores the message for delivery; it is sent shortly after, and retried until it is. With an
   * id (a UUID), sending the same id again while the first is waiting or running stores nothing.
   */
  send(message: MailMessage, options?: { id?: string }): Promise<void>;
}

/** Hands one message to the outside world; throws when it could not. */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  deliver(message: MailMessage): Promise<void>;
}

export function createMailer(jobs: JobQueue, transport: MailTransport): Mailer {
  return {
    kind: transport.kind,
    async send(message, options) {
      // An athlete a family added has an address of the reserved .invalid domain (decision 0036):
      // nothing is ever sent there, whatever asked for it (a password reset typed with it).
      if (/\.invalid$/i.test(message.to.trim())) return;
      await jobs.send('mail.deliver', message, options?.id ? { id: options.id } : {});
    },
  };
}

export function createMailTransport(opts: { smtpUrl: string | null; outboxDir: string; logLinks: boolean }): MailTransport {
  return opts.smtpUrl ? createSmtpTransport(opts.smtpUrl) : createOutboxTransport(opts.outboxDir, opts.logLinks);
}

function createSmtpTransport(smtpUrl: string): MailTransport {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async deliver(message) {
      try {
        await transport.sendMail({ from: COMPANY.mailFrom, ...message });
      } catch (error) {
        if (refusedForGood(error)) throw new PermanentJobError(`The mail server refused this message: ${(error as Error).message}`);
        throw error;
      }
    },
  };
}

/**
 * The server answered this message or its addresses with a permanent refusal (5xx, or an address
 * it cannot take at all): trying again for a day would change nothing and only look like abuse to
 * the provider. The job fails at once and shows in the admins' failed jobs, where it can be run
 * again once the cause is fixed. A busy or absent server (4xx, no connection, a timeout, a login
 * refused) is a passing fault and is retried.
 */
function refusedForGood(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  if (code !== 'EENVELOPE' && code !== 'EMESSAGE') return false;
  return responseCode === undefined || (responseCode >= 500 && responseCode < 600);
}

function createOutboxTransport(outboxDir: string, logLinks: boolean): MailTransport {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async deliver(message) {
      const info = await transport.sendMail({ from: COMPANY.mailFrom, ...message });
      await fs.mkdir(outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      await fs.writeFile(path.join(outboxDir, name), info.message as Buffer);
      if (logLinks) {
        const links = message.text.match(/https?:\/\/\S+/g) ?? [];
        console.log(`[mail] to ${message.to}: ${message.subject}${links.map((l) => `\n  ${l}`).join('')}`);
      }
    },
  };
}
