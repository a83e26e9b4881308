// A real SMTP server on loopback that keeps what it receives, parsed, for tests to read.
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { freePort } from './ports';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  replyTo: string | null;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Waits for a mail to `to` whose subject contains `subject`. */
  waitFor(to: string, subject?: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Makes the server answer every message "try again later" (421, as when it is overloaded or going down), or accept again. */
  setFailing(failing: boolean): void;
  /** Makes the server refuse every message for good (550), or accept again. */
  setRefusing(refusing: boolean): void;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let failing = false;
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      if (failing || refusing) {
        const refusal = failing ? { message: 'Service not available, try again later', responseCode: 421 } : { message: 'Mailbox unavailable', responseCode: 550 };
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error(refusal.message), { responseCode: refusal.responseCode })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const addresses = (v: unknown) =>
            ([] as Array<{ value: Array<{ address?: string }> }>)
              .concat((v as never) ?? [])
              .flatMap((a) => a.value.map((x) => x.address ?? ''));
          mails.push({
            to: addresses(parsed.to),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            replyTo: parsed.replyTo?.text ?? null,
          });
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    mails,
    async waitFor(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((m) => m.to.includes(to.toLowerCase()) && (!subject || m.subject.includes(subject)));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} (${subject ?? 'any subject'}) within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    setFailing(value) {
      failing = value;
    },
    setRefusing(value) {
      refusing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link in a mail's text. */
export function linkIn(mail: ReceivedMail): string {
  const m = /https?:\/\/\S+/.exec(mail.text);
  if (!m) throw new Error(`no link in mail "${mail.subject}"`);
  return m[0];
}
