// Outgoing mail behind one interface. SMTP_URL picks the SMTP driver; without it every message
// is written to the outbox (data/mail/*.eml) and its links are printed, so a person trying the
// product locally can still verify an address or reset a password.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { COMPANY } from '../../common/company';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}

export function createMailer(opts: { smtpUrl: string | null; outboxDir: string; logLinks: boolean }): Mailer {
  return opts.smtpUrl ? createSmtpMailer(opts.smtpUrl) : createOutboxMailer(opts.outboxDir, opts.logLinks);
}

function createSmtpMailer(smtpUrl: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from: COMPANY.mailFrom, ...message });
    },
  };
}

function createOutboxMailer(outboxDir: string, logLinks: boolean): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
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
