// The 'mail.deliver' job: one message through the transport. A failure throws, and the queue
// tries again later (definitions.ts): an SMTP outage delays mail, it does not lose it.
import type { JobHandler } from '../jobs/queue';
import type { MailTransport } from './mailer';

export function deliverMail(transport: MailTransport): JobHandler<'mail.deliver'> {
  return async (message) => {
    await transport.deliver(message);
    return 'done';
  };
}
