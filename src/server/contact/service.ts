// A contact message is stored first, then mail to the team and an auto-reply to the sender
// are queued (the mail queue delivers and retries them). The auto-reply repeats nothing the
// sender typed, so the form cannot be used to send our mail with someone else's words to any
// address, and one address gets at most a few of them a day.
import type { z } from 'zod';
import type { contactSchema } from '../../common/schemas';
import type { Db } from '../db/client';
import { contactMessages } from '../db/schema';
import { RATE_RULES, type RateLimiter } from '../http/rate-limit';
import type { Mailer } from '../mail/mailer';
import { contactAutoReplyMail, contactNotificationMail, type ContactParams } from '../mail/templates';
import type { Config } from '../config';

export type ContactMessage = z.output<typeof contactSchema>;

export async function submitContactMessage(
  deps: { db: Db; mailer: Mailer; limiter: RateLimiter; config: Pick<Config, 'team'> },
  input: ContactMessage,
  submittedAt = new Date(),
): Promise<{ id: string; autoReplied: boolean }> {
  const [row] = await deps.db
    .insert(contactMessages)
    .values({ ...input, phone: input.phone ?? null })
    .returning({ id: contactMessages.id });
  const params: ContactParams = {
    user_name: `${input.firstName} ${input.lastName}`,
    user_email: input.email,
    user_number: input.phone ?? 'Not provided',
    subject: input.subject,
    message: input.message,
    submitted: submittedAt.toLocaleString('en-US', { timeZone: 'America/Chicago', dateStyle: 'medium', timeStyle: 'short' }),
  };
  await deps.mailer.send(contactNotificationMail(deps.config.team.email, params));
  const replies = await deps.limiter.hit(RATE_RULES.contactAutoReplyPerRecipient, input.email);
  if (replies.allowed) await deps.mailer.send(contactAutoReplyMail(input.email));
  return { id: row!.id, autoReplied: replies.allowed };
}
